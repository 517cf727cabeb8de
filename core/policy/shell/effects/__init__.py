"""What commands do to paths, secrets and the commands they run, shared by every family: mixins of
:class:`core.policy.shell.walker.ShellReader` (so a handler calls ``r.write_path(…)``, ``r.read_secret_check(…)``,
``r.option_command(…)``).

Modules: ``paths`` (writes and deletes by path class), ``secrets`` (secret reads and secret data flowing to the
network), ``options`` (options and variables that write a file or run a command).
"""
