"""Small runnable programs that show chainerlite end to end."""
