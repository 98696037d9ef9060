"""The shape of a register's declaration (registers.py): the kinds of value a cell holds, a column,
a register, and how each kind is stored and described to whoever fills it in."""

from __future__ import annotations

from dataclasses import dataclass, field

# Value kinds. Every cell arrives as text (CSV) or as an Excel cell made text
# (bundle.py); values.py turns text into the stored type.
ID, TEXT, DATE, MONEY, COUNT, FLAG, TIME, ENUM = (
    "id", "text", "date", "money", "count", "flag", "time", "enum",
)

SQL_TYPE = {
    ID: "VARCHAR", TEXT: "VARCHAR", DATE: "DATE", MONEY: "BIGINT",  # paise
    COUNT: "BIGINT", FLAG: "BOOLEAN", TIME: "VARCHAR", ENUM: "VARCHAR",
}


@dataclass(frozen=True)
class Column:
    name: str
    kind: str
    required: bool = False          # a blank cell is an error
    values: tuple[str, ...] = ()    # the listed set, for ENUM
    refers_to: str | None = None    # "register.column" that must hold the value
    minimum: int | None = None      # for COUNT / MONEY, in the column's own unit
    what: str = ""                  # plain words for messages and docs
    optional: bool = False          # a file may leave the column out (it is then blank)
    required_when: tuple[str, str] | None = None   # (column, value): blank is an error on such rows
    # a file that leaves this (optional) column out gives each row the value of the column named here
    # (R25: a police report without market_proclamation_on records one proclamation for both places)
    absent_as: str | None = None


@dataclass(frozen=True)
class Register:
    name: str
    folder: str                     # reference | registers | ledgers
    columns: tuple[Column, ...]
    key: tuple[str, ...]
    section: str = ""
    exact_name: bool = False        # reference files have one fixed name
    what: str = ""
    extra_checks: tuple[str, ...] = field(default=())
    event_date: tuple[str, ...] = ()   # the row's own date (the first of these that is filled)

    def own_day(self, row: str) -> str:
        """SQL for the row's own date, of a row (a table alias, as a struct) named `row`: the first of
        `event_date` filled. The one definition: the SQL models call it as own_day_<table>(row), a
        macro load/schema.py current_macros() writes from it."""
        days = [f'{row}."{c}"' for c in self.event_date]
        return days[0] if len(days) == 1 else f"coalesce({', '.join(days)})"

    def __post_init__(self):
        # Registers and ledgers change: a row may be sent again as a corrected version, or struck
        # out (void), with a note saying why. Reference tables are replaced, not corrected.
        if self.folder in ("registers", "ledgers") and "correction_note" not in self.names:
            object.__setattr__(self, "columns", self.columns + (
                Column("correction_note", TEXT, optional=True,
                       what="why this row corrects, strikes out or restores one sent before"),
                Column("void", FLAG, optional=True, what="yes: the row was entered in error and is withdrawn")))

    @property
    def correctable(self) -> bool:
        return self.folder in ("registers", "ledgers")

    @property
    def required_names(self) -> list[str]:
        """The columns every file of the register must have."""
        return [c.name for c in self.columns if not c.optional]

    @property
    def data_names(self) -> list[str]:
        """The columns that say what the row records (its correction note aside)."""
        return [c.name for c in self.columns if c.name != "correction_note"]

    def column(self, name: str) -> Column:
        for c in self.columns:
            if c.name == name:
                return c
        raise KeyError(name)

    @property
    def names(self) -> list[str]:
        return [c.name for c in self.columns]

    @property
    def table(self) -> str:
        return self.name


def describe_kind(col: Column) -> str:
    """What a valid value of this column looks like, in plain words."""
    k = col.kind
    if k == DATE:
        return "a date written YYYY-MM-DD, DD/MM/YYYY or DD-MM-YYYY (day first)"
    if k == MONEY:
        return "an amount in rupees with at most two decimals, such as 600, 600.50 or 1,200.00"
    if k == COUNT:
        return "a whole number"
    if k == FLAG:
        return "yes or no (also y/n, true/false, 1/0; blank means no)"
    if k == TIME:
        return "a time of day written HH:MM"
    if k == ENUM:
        return "one of: " + ", ".join(col.values)
    return "text"
