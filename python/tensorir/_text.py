"""Text helpers the package shares."""

__all__ = ["split_top_level"]


def split_top_level(text):
    """The comma-separated parts of `text` outside any brackets (<>, (),
    {}, []), as written (not stripped)."""
    parts, depth, start = [], 0, 0
    for i, ch in enumerate(text):
        if ch in "<({[":
            depth += 1
        elif ch in ">)}]":
            depth -= 1
        elif ch == "," and depth == 0:
            parts.append(text[start:i])
            start = i + 1
    if text[start:].strip():
        parts.append(text[start:])
    return parts
