def wrap(text, width):
    """Greedy word wrap: lines of at most ``width`` characters, words kept whole where they fit."""
    if width < 1:
        raise ValueError("width must be at least 1")
    words = text.split()
    lines = []
    current = ""
    index = 0
    while index < len(words):
        word = words[index]
        candidate = f"{current} {word}" if current else word
        if len(candidate) <= width:
            current = candidate
            index += 1
        elif not current:
            lines.append(word[:width])
            words[index] = word[width:]
        else:
            if current:
                lines.append(current)
            current = ""
    if current:
        lines.append(current)
    return lines
