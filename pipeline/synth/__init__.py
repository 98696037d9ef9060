"""`pound synth`: realistic registers at any scale, with planted violations and their key.

The generator is vectorised (numpy): one array per column of the case table,
outcomes chosen by masks, dates as day numbers. A clean bundle passes every
rule; then a share of the cases (violation_rate) each get one planted
violation of one of the rules in PLANTABLE, listed in BUNDLE/planted.csv as
(rule_id, subject_id). `pound run BUNDLE --as-of <the last day of the last month>`
must find exactly those, which measures the rules' recall and precision.

Every amount that the Act makes due, and what a sale's proceeds pay, comes from the
pipeline's own SQL models, run on the synthetic registers (accounts.py): synth draws
dates, herds, prices and events, never a due.

The modules, in the order write_bundle runs them:
  config.py      SynthConfig, and the figures the registers are drawn from, with their sources
  state.py       the Generator that carries the frames from step to step; day and id helpers
  reference.py   local authorities, pounds, officials, rates, notifications
  cases.py       the clean course of every case, security outcomes, removal orders
  accounts.py    the two builds: the dues of the clean registers; the accounts of the planted ones
  plants/        the planted violations, one module per part of the Act, each declaring its rule
  ledgers.py     the local funds' and the DM's ledgers
  write.py       write_bundle, and the CSV files (written by DuckDB from the second build's tables)
"""

from pipeline.synth.config import SynthConfig
from pipeline.synth.plants import PLANTABLE
from pipeline.synth.write import write_bundle

__all__ = ["PLANTABLE", "SynthConfig", "write_bundle"]
