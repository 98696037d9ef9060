"""The papers the Act asks officials to produce, written from the finished models.

`papers.py` says which model each kind of paper reads and selects its rows (through
pipeline.read.select, the only way a page reads a figure); `render.py` fills the Jinja2
templates of `templates/` (one per kind, which a district may replace with `--templates`)
and writes one A4 HTML page per paper and an index; `pdf.py` prints them with headless
Chromium. Nothing here computes a figure: every date and amount is a model column.
"""
