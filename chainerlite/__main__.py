"""``python -m chainerlite``: prints the runtime information."""
import chainerlite

chainerlite.print_runtime_info()
