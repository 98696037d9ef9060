"""Reading the finished models of a built database, by scope: the layer every report,
workbook and document stands on. Nothing here defines a figure; see select.py."""
