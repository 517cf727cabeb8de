"""The program handlers, one module per family of programs; each module ends with its ``HANDLERS`` table
(program -> handler), which :mod:`core.policy.shell.registry` merges into the reader's handler map."""
