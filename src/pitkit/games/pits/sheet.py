"""The BGA continuous Pits score sheet (ruling P10)."""
