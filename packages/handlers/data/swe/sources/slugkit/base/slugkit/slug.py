import re
import unicodedata

_NOT_ALNUM = re.compile(r"[^a-z0-9]+")


def slugify(text, separator="-"):
    """Lower-case ASCII slug: accents dropped, runs of other characters become one separator."""
    ascii_text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode("ascii")
    return _NOT_ALNUM.sub(separator, ascii_text.lower())
