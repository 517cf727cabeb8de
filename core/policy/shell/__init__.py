"""The command tier (tiers.md, "Command tier"): shell text read as a shell would, with a little data flow, and
every simple command judged by the handler of its program and the tables of :mod:`core.policy.tables`.

Package map, lower layers first (each module's docstring says how to add a rule there):
    ``syntax/``       the parser: node types and the work budget (nodes), words (quotes, escapes,
                      substitutions), lists and commands (parser);
    ``state``         what the reader keeps while it reads: Acc (the verdict), Ctx (data flow), the limits,
                      the values a command prints for the next (Flow, FileInput, TextInput, ProcOutput);
    ``common``        small shared helpers (show, unescape, is_secret_name, prod_in);
    ``options``       option readers (getopts, first_value, parse_fx, the options before a subcommand);
    ``effects/``      rules every family shares, as mixins of the reader: paths (writes, deletes), secrets
                      (secret reads and flows, secret printers), options (options and variables that write or
                      run), publish (publishing to a registry); and what any program's arguments say (tiers.md
                      v3.2): knowledge (the program table, the entry point), arguments (the facts read),
                      decide (their tiers), shells, addresses;
    ``families/``     the program handlers, one module per family, each ending with its HANDLERS table;
    ``registry``      the handler map merged from the families' tables (the one table of who reads what);
    ``dispatch``      one command to its handler: wrappers, aliases, dry runs, option effects, secret flow;
    ``expansion``     word expansion (variables, IFS, braces, substitutions);
    ``walker``        ShellReader: parse, walk lists, pipelines, loops, redirects.

A family module imports only the lower layers; a handler of another family is called through the registry
(``r.call("h_name", …)``), and the reader's own work through ``r`` (``r.run_text``, ``r.write_path`` …).
"""
