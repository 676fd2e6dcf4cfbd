"""Examples of using pitkit (run them as scripts; tests import them)."""
