"""Amounts in words, as a receipt writes them under the figure: English and Kannada, in lakh and crore.

English comes from num2words (its en_IN words: "one lakh, twenty thousand"). Kannada is written
here: num2words' Kannada joins the parts wrongly ("ಒಂದು ಒಂದು ಲಕ್ಷ" for 1,00,000, "ಇಪ್ಪತ್ತ್ ಒಂದು"
for 21), so the words below follow the usual written forms: a ten joined to its unit (ಇಪ್ಪತ್ತೊಂದು,
ಇಪ್ಪತ್ಮೂರು), a hundred, thousand or lakh followed by more in its linking form (ನೂರ, ಸಾವಿರದ, ಲಕ್ಷದ).
Both are awaiting a translator's check (docs/glossary-kannada.md). Integer paise in, text out.
"""

from __future__ import annotations

_UNITS = ("ಸೊನ್ನೆ", "ಒಂದು", "ಎರಡು", "ಮೂರು", "ನಾಲ್ಕು", "ಐದು", "ಆರು", "ಏಳು", "ಎಂಟು", "ಒಂಬತ್ತು",
          "ಹತ್ತು", "ಹನ್ನೊಂದು", "ಹನ್ನೆರಡು", "ಹದಿಮೂರು", "ಹದಿನಾಲ್ಕು", "ಹದಿನೈದು", "ಹದಿನಾರು", "ಹದಿನೇಳು",
          "ಹದಿನೆಂಟು", "ಹತ್ತೊಂಬತ್ತು")
_TENS = {2: "ಇಪ್ಪತ್ತು", 3: "ಮೂವತ್ತು", 4: "ನಲವತ್ತು", 5: "ಐವತ್ತು", 6: "ಅರವತ್ತು", 7: "ಎಪ್ಪತ್ತು",
         8: "ಎಂಬತ್ತು", 9: "ತೊಂಬತ್ತು"}
_HUNDREDS = {1: "ನೂರು", 2: "ಇನ್ನೂರು", 3: "ಮುನ್ನೂರು", 4: "ನಾನೂರು", 5: "ಐನೂರು", 6: "ಆರುನೂರು",
             7: "ಏಳುನೂರು", 8: "ಎಂಟುನೂರು", 9: "ಒಂಬೈನೂರು"}
# a unit starting with a vowel joins a ten as its vowel sign: ಇಪ್ಪತ್ತು + ಒಂದು -> ಇಪ್ಪತ್ತೊಂದು
_SIGN = {"ಒ": "ೊ", "ಎ": "ೆ", "ಐ": "ೈ", "ಆ": "ಾ", "ಏ": "ೇ"}
_VIRAMA = "\u0ccd"


def _below_hundred(n: int) -> str:
    if n < 20:
        return _UNITS[n]
    tens, unit = divmod(n, 10)
    word = _TENS[tens]
    if unit == 0:
        return word
    u = _UNITS[unit]
    if u[0] in _SIGN:                       # ಇಪ್ಪತ್ತ + ೊಂದು
        return word[:-1] + _SIGN[u[0]] + u[1:]
    return word[:-3] + _VIRAMA + u          # ಇಪ್ಪತ್ + ್ + ಮೂರು -> ಇಪ್ಪತ್ಮೂರು


def _below_thousand(n: int) -> str:
    hundreds, rest = divmod(n, 100)
    if not hundreds:
        return _below_hundred(rest)
    word = _HUNDREDS[hundreds]
    return word if not rest else f"{word[:-1]} {_below_hundred(rest)}"    # ನೂರು -> ನೂರ ಐವತ್ತು


# (size, the word alone, the word when more follows)
_SCALES = ((10_000_000, "ಕೋಟಿ", "ಕೋಟಿ"), (100_000, "ಲಕ್ಷ", "ಲಕ್ಷದ"), (1_000, "ಸಾವಿರ", "ಸಾವಿರದ"))


def kannada_number(n: int) -> str:
    """A whole number in Kannada words, in crore, lakh and thousand: 120000 -> ಒಂದು ಲಕ್ಷದ ಇಪ್ಪತ್ತು ಸಾವಿರ."""
    n = int(n)
    if n < 0:
        return "ಋಣ " + kannada_number(-n)
    if n < 1000:
        return _below_thousand(n)
    for size, alone, linked in _SCALES:
        if n >= size:
            head, rest = divmod(n, size)
            count = kannada_number(head) if size == 10_000_000 else _below_hundred(head)
            return f"{count} {alone}" if not rest else f"{count} {linked} {kannada_number(rest)}"
    raise AssertionError(n)      # pragma: no cover


def english_number(n: int) -> str:
    """A whole number in English words, Indian style: 120000 -> one lakh twenty thousand."""
    from num2words import num2words

    return num2words(int(n), lang="en_IN").replace(",", "")


def amount_words(paise, lang: str = "en") -> str:
    """Integer paise as a receipt writes them in words: 'Rupees four thousand eight hundred and fifty
    only'; 'ರೂಪಾಯಿ ನಾಲ್ಕು ಸಾವಿರದ ಎಂಟುನೂರ ಐವತ್ತು ಮಾತ್ರ'. Blank for no amount."""
    if paise is None:
        return ""
    p = int(paise)
    sign, p = ("minus " if lang == "en" else "ಋಣ ", -p) if p < 0 else ("", p)
    rupees, paisa = divmod(p, 100)
    if lang == "kn":
        text = f"ರೂಪಾಯಿ {kannada_number(rupees)}"
        if paisa:
            text += f" ಮತ್ತು {kannada_number(paisa)} ಪೈಸೆ"
        return f"{sign}{text} ಮಾತ್ರ"
    text = f"Rupees {english_number(rupees)}"
    if paisa:
        text += f" and {english_number(paisa)} paise"
    return f"{sign}{text} only"


_KN_DIGITS = str.maketrans("0123456789", "೦೧೨೩೪೫೬೭೮೯")


def kannada_digits(text: str) -> str:
    """The digits of a text as Kannada digits (೧,೨೦,೦೦೦.೦೦): the papers' setting kannada_digits."""
    return str(text).translate(_KN_DIGITS)
