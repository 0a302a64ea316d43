"""The local terminal table: the table service driven from a keyboard or a script."""
