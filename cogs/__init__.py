"""Chipfist's Discord presenter: slash commands, buttons, modals and DMs.

``ids`` encodes button custom_ids, ``ops`` is the one module that talks to Discord,
``embeds`` builds the table message, ``presenter`` receives the table service's
notices, ``components`` holds the restart-proof buttons and the raise modal,
``table_cog`` the slash commands and ``errors`` the tree-level error handler.
"""
