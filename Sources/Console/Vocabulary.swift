// The terminal-safe text every line is made of (ARCHITECTURE §3, "Layers").
@_exported import TerminalText
