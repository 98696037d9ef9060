"""The HTML reports: the monthly review, the reconciliation and the trends.

The notebooks in notebooks/ (jupytext percent files) are thin: they call review.py,
trends.py and read/reconciliation.py for what to show (selections of finished models),
html.py and charts.py to show it, and page.py for what every page has. render.py
runs them into pages that open offline.
"""
