"""The command tier (tiers.md, "Command tier"): shell text read as a shell would, with a little data flow, and
every simple command matched against the program tables of :mod:`core.policy.tables`.

Package map (see each module's docstring for how to add a rule there):
    ``syntax/``     the parser: node types and the work budget, words (quotes, escapes, substitutions);
"""
