"""Why some bytes are no TOML document, in our words and the command line's language:
tomllib's syntax errors (English, whatever the table speaks) said again with their line
and column, a file that is not UTF-8 text, a number too long for Python or arrays nested
too deep (`toml_of`). A configuration, a pin map and the lab's variants file say them
alike."""

from __future__ import annotations

import ast
import re
import sys
import tomllib
from typing import Any

from companion.phrasebook import Book

WORDS: dict[str, tuple[str, str]] = {
    # where
    "at": ("ligne {line}, colonne {column}", "line {line}, column {column}"),
    "at_end": ("à la fin du fichier", "at the end of the file"),
    "error": ("pas du TOML valide ({where}) : {why}", "not valid TOML ({where}): {why}"),
    # what tomllib found
    "statement": ("une ligne qui n’est ni `clé = valeur`, ni un `[titre]` de table, ni un "
                  "`# commentaire`",
                  "a line that is neither `key = value`, a `[table]` header nor a `# comment`"),
    "after_value": ("autre chose en fin de ligne : une seule `clé = valeur` ou un seul "
                    "`[titre]` par ligne",
                    "something more at the end of the line: one `key = value` or one "
                    "`[table]` header a line"),
    "missing": ("il manque `{what}`", "`{what}` is missing"),
    "control": ("un caractère de contrôle interdit ici ({char})",
                "a control character not allowed here ({char})"),
    "table_twice": ("la table `[{key}]` est déclarée deux fois",
                    "the table `[{key}]` is declared twice"),
    "overwrite": ("cette clé a déjà une valeur", "this key already has a value"),
    "header_end": ("il manque `]` à la fin du titre de table",
                   "the table header lacks its closing `]`"),
    "array_header_end": ("il manque `]]` à la fin du titre de liste de tables",
                         "the array of tables header lacks its closing `]]`"),
    "closed": ("`{key}` est une table en ligne ou une liste déjà écrite : on n’y ajoute plus rien",
               "`{key}` is an inline table or an array already written: nothing can be added "
               "to it"),
    "redefine": ("`{key}` est déjà une table : une clé pointée ne peut la redéfinir",
                 "`{key}` is already a table: a dotted key cannot define it again"),
    "equals": ("il manque `=` après la clé", "`=` is missing after the key"),
    "key_start": ("une clé ne commence pas ainsi (des lettres, des chiffres, `_` et `-`, ou "
                  "des guillemets)",
                  "a key cannot start this way (letters, digits, `_` and `-`, or quotes)"),
    "array": ("une liste pas fermée : il manque `]`, ou une virgule entre deux éléments",
              "an array not closed: `]` is missing, or a comma between two items"),
    "inline_twice": ("la clé `{key}` est deux fois dans la table en ligne",
                     "the key `{key}` is twice in the inline table"),
    "inline": ("une table en ligne pas fermée : il manque `}}`, ou une virgule entre deux clés",
               "an inline table not closed: `}}` is missing, or a comma between two keys"),
    "backslash": ("une barre oblique inverse seule dans une chaîne : écrivez `\\\\`",
                  "a lone backslash in a string: write `\\\\`"),
    "hex": ("un code `\\u` ou `\\U` mal écrit dans une chaîne",
            "a `\\u` or `\\U` code written wrong in a string"),
    "scalar": ("un code `\\u` ou `\\U` qui n’est pas un caractère Unicode",
               "a `\\u` or `\\U` code that is no Unicode character"),
    "string": ("une chaîne pas fermée : il manque son guillemet final",
               "a string not closed: its closing quote is missing"),
    "date": ("une date ou une heure impossible", "an impossible date or time"),
    "value": ("une valeur que TOML ne sait pas lire (un texte veut des guillemets)",
              "a value TOML cannot read (a text needs quotes)"),
    "syntax": ("une faute de syntaxe", "a syntax mistake"),
    # the bytes
    "not_utf8": ("pas du texte UTF-8 (l’octet 0x{byte:02X} à la position {offset}) : "
                 "enregistrez-le en UTF-8",
                 "not UTF-8 text (byte 0x{byte:02X} at offset {offset}): save it as UTF-8"),
    "digits": ("pas du TOML valide : un nombre de plus de {digits} chiffres",
               "not valid TOML: a number of more than {digits} digits"),
    "too_deep": ("pas du TOML valide : imbriqué trop profond (des listes ou des tables en ligne "
                 "sur des centaines de niveaux)",
                 "not valid TOML: nested too deep (arrays or inline tables hundreds deep)"),
}  # fmt: skip
"""Under ``cli.toml.``."""

BOOK = Book("cli.toml.", WORDS)

_MESSAGES: tuple[tuple[re.Pattern[str], str], ...] = tuple(
    (re.compile(pattern), key)
    for pattern, key in (
        (r"Invalid statement", "statement"),
        (r"Expected newline or end of document after a statement", "after_value"),
        (r"Expected '=' after a key in a key/value pair", "equals"),
        (r"Expected '\]' at the end of a table declaration", "header_end"),
        (r"Expected '\]\]' at the end of an array declaration", "array_header_end"),
        (r"Expected (?P<what>.+)", "missing"),
        (r"Found invalid character (?P<char>.+)", "control"),
        (r"Illegal character (?P<char>.+)", "control"),
        (r"Cannot declare (?P<key>.+) twice", "table_twice"),
        (r"Cannot overwrite a value", "overwrite"),
        (r"Cannot mutate immutable namespace (?P<key>.+)", "closed"),
        (r"Cannot redefine namespace (?P<key>.+)", "redefine"),
        (r"Invalid initial character for a key part", "key_start"),
        (r"Unclosed array", "array"),
        (r"Duplicate inline table key (?P<key>.+)", "inline_twice"),
        (r"Unclosed inline table", "inline"),
        (r"Unescaped '\\' in a string", "backslash"),
        (r"Invalid hex value", "hex"),
        (r"Escaped character is not a Unicode scalar value", "scalar"),
        (r"Unterminated string", "string"),
        (r"Invalid date or datetime", "date"),
        (r"Invalid value", "value"),
    )
)
"""tomllib's messages (Python 3.11 to 3.13) and our words for each; another says
`syntax`."""
_AT = re.compile(r"^(?P<message>.*) \(at (?:line (?P<line>\d+), column (?P<column>\d+)|"
                 r"end of document)\)$", re.DOTALL)  # fmt: skip


class NotToml(ValueError):
    """Bytes that are no TOML document; the message (our words) says why and where."""


def toml_of(raw: bytes) -> dict[str, Any]:
    """The TOML document `raw`, or `NotToml` saying why it is none, whatever the bytes."""
    try:
        return tomllib.loads(raw.decode("utf-8"))
    except UnicodeDecodeError as exc:
        problem = _say("not_utf8", byte=exc.object[exc.start], offset=exc.start)
    except tomllib.TOMLDecodeError as exc:
        problem = syntax_error(exc)
    except ValueError as exc:  # int() past its digit limit
        problem = _say("digits", digits=sys.get_int_max_str_digits()) if "digits" in str(
            exc
        ) else syntax_error(exc)  # fmt: skip
    except RecursionError:
        problem = _say("too_deep")
    raise NotToml(problem)


def syntax_error(exc: ValueError) -> str:
    """tomllib's syntax error in our words, with its line and column."""
    found = _AT.match(str(exc))
    message = found["message"] if found else str(exc)
    if found is None:
        where = _say("at_end")  # no position: a message of a tomllib to come
    elif found["line"]:
        where = _say("at", line=found["line"], column=found["column"])
    else:
        where = _say("at_end")
    for pattern, key in _MESSAGES:
        if said_as := pattern.fullmatch(message):
            fields = {name: _named(value) for name, value in said_as.groupdict().items()}
            if fields.get("char") == "U+000A":  # a line's end inside a string
                key, fields = "string", {}
            return _say("error", where=where, why=_say(key, **fields))
    return _say("error", where=where, why=_say("syntax"))


def _named(value: str) -> str:
    """A key, a character or a string tomllib quotes as Python writes it: ``('game',)``
    is ``game``, a control character ``U+0000``."""
    try:
        value = ast.literal_eval(value)
    except (ValueError, SyntaxError):
        return value
    if isinstance(value, tuple):
        return ".".join(map(str, value))
    text = str(value)
    if len(text) == 1 and (text < " " or text == "\x7f"):
        return f"U+{ord(text):04X}"
    return text


def _say(key: str, /, **fields: object) -> str:
    return BOOK.say(key, **fields)
