from pipeline.cli import entry

entry()
