"""The office desk: `pound desk`, the month of a district office on one local web page.

app.py is the web layer (Flask), actions.py the month's steps it calls, upload.py a file added
from the browser, command.py the `pound desk` command (found by pipeline.cli through the
`pound.commands` entry point: neither package imports the other).
"""
