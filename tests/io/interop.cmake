# Filled in by the PLY work.
