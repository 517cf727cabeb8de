"""Package managers: installers (their install subcommands), publishers (publishing to a registry is HIGH),
build tools' publish tasks, package runners (``npx``, ``uvx``), code fetched by URL.

To add a rule: add the program and its subcommands to INSTALLERS or PUBLISHERS; a program new to every table
gets the packages family's handler by itself. Test it in ``tests/core/policy/test_packages.py``.
"""

from __future__ import annotations

#: publishing to a registry (HIGH): program -> its publish commands (None: any use publishes). An entry is the
#: subcommand, or the subcommand and a word or option that must be among its arguments too (``owner add``,
#: ``owner --add``): unpublishing, yanking, deprecating, retagging and ownership changes of a published
#: package count as publishing
PUBLISHERS = {
    "npm": ("publish", "unpublish", "deprecate", "undeprecate", "dist-tag add", "dist-tag rm", "dist-tag remove",
            "owner add", "owner rm", "owner remove", "access grant", "access revoke", "access set",
            "access public", "access restricted"),
    "pnpm": ("publish", "unpublish", "deprecate", "dist-tag add", "dist-tag rm", "owner add", "owner rm"),
    "yarn": ("publish", "npm publish", "npm tag add", "npm tag remove", "unpublish", "owner add", "owner remove",
             "tag add", "tag remove"),
    "bun": ("publish",),
    "twine": ("upload", "register"), "cargo": ("publish", "yank", "owner --add", "owner -a", "owner --remove",
                                               "owner -r"),
    "gem": ("push", "yank", "owner --add", "owner -a", "owner --remove", "owner -r"),
    "goreleaser": ("release", ""), "semantic-release": None, "changeset": ("publish",), "lerna": ("publish",),
    "mix": ("hex.publish", "hex.retire", "hex.owner"), "swift": ("package-registry publish",),
    "docker": ("push",), "podman": ("push",),
    "buildah": ("push",), "poetry": ("publish",), "uv": ("publish",), "flit": ("publish",), "hatch": ("publish",),
    "pdm": ("publish",), "dotnet": ("nuget",), "nuget": ("push",),
    "vsce": ("publish",), "ovsx": ("publish",), "crane": ("push",), "skopeo": ("copy",),
    "jsr": ("publish",), "deno": ("publish",), "helm": ("push", "cm-push"),
}
#: build tools that run a list of tasks: program -> prefixes of the tasks that publish to a remote repository
#: (a task may be named with its project path, ``:lib:publish``), and the tasks with those prefixes that only
#: publish locally
PUBLISH_TASKS: dict[str, tuple[tuple, tuple]] = {
    "gradle": (("publish", "uploadArchives", "bintrayUpload", "artifactoryPublish"),
               ("publishToMavenLocal", "publishAllPublicationsToMavenLocal")),
    "mvn": (("deploy", "release:perform", "deploy:deploy-file", "nexus-staging:release"), ()),
}
for _p in ("gradlew", "gradlew.bat"):
    PUBLISH_TASKS[_p] = PUBLISH_TASKS["gradle"]
for _p in ("mvnw", "mvnw.cmd"):
    PUBLISH_TASKS[_p] = PUBLISH_TASKS["mvn"]
#: scripts whose commands publish: script name -> commands (``python setup.py sdist upload``)
SCRIPT_PUBLISHERS = {"setup.py": frozenset(("upload", "register", "upload_docs"))}
#: options of image builds that push the result to a registry (``docker buildx build --push``): a publish
BUILD_PUSH_OPTIONS = frozenset(("--push",))
#: values of ``--output``/``-o`` of image builds that push (``type=registry``, ``type=image,push=true``)
BUILD_PUSH_OUTPUTS = ("type=registry", "push=true")
#: package installers: program -> subcommands that install (None: any use installs)
INSTALLERS = {
    "pip": ("install", "download"), "pip3": ("install", "download"), "pipx": ("install", "inject", "run"),
    "uv": ("add", "sync", "pip", "tool"), "poetry": ("add", "install", "update"), "pipenv": ("install", "sync"),
    "pdm": ("add", "install", "sync"), "conda": ("install", "create", "update"), "mamba": ("install", "create"),
    "micromamba": ("install", "create"),
    "npm": ("install", "i", "ci", "add", "isntall", "update", "up", "upgrade", "link", "in", "install-test"),
    "yarn": ("add", "install", "upgrade", "up", "dlx"), "pnpm": ("add", "install", "i", "update", "up", "dlx"),
    "bun": ("add", "install", "i", "update", "x"), "npx": None, "bunx": None,
    "apt": ("install", "upgrade", "full-upgrade", "dist-upgrade", "reinstall", "remove", "purge", "autoremove"),
    "apt-get": ("install", "upgrade", "dist-upgrade", "reinstall", "remove", "purge", "autoremove", "build-dep"),
    "aptitude": ("install", "upgrade", "safe-upgrade", "full-upgrade", "remove", "purge"),
    "dpkg": ("-i", "--install", "-r", "--remove", "-P", "--purge"),
    "yum": ("install", "update", "upgrade", "remove", "erase", "reinstall", "groupinstall", "localinstall"),
    "dnf": ("install", "update", "upgrade", "remove", "erase", "reinstall", "group"),
    "zypper": ("install", "in", "update", "up", "remove", "rm", "dup"), "apk": ("add", "del", "upgrade"),
    "pacman": ("-S", "-U", "-R", "-Syu", "-Sy", "-Rs", "-Rns"), "yay": None, "paru": None,
    "brew": ("install", "reinstall", "upgrade", "tap", "uninstall", "remove", "link"),
    "port": ("install", "upgrade"), "snap": ("install", "refresh", "remove"),
    "flatpak": ("install", "update", "uninstall"), "cargo": ("install", "add", "binstall"),
    "go": ("install", "get"), "gem": ("install", "update"), "composer": ("require", "install", "update", "global"),
    "bundle": ("install", "update", "add"), "bundler": ("install", "update"), "nix-env": ("-i", "--install", "-iA"),
    "choco": ("install", "upgrade"), "winget": ("install", "upgrade"), "scoop": ("install",),
    "cpan": None, "cpanm": None, "luarocks": ("install",), "opam": ("install",), "rustup": ("install",),
    "mas": ("install",), "asdf": ("install", "plugin"), "mise": ("install", "use"), "nvm": ("install",),
    "pyenv": ("install",), "rbenv": ("install",), "deno": ("install",), "stack": ("install",),
    "cabal": ("install",), "dotnet": ("add", "tool"), "krew": ("install",),
    "easy_install": None, "pip-sync": None, "sdk": ("install",),
    "rpm": ("--install", "--upgrade", "--freshen", "--erase", "--reinstall"),
}
#: installers whose mode is the first letter of a short-option cluster (``rpm -ivh``, ``rpm -Uvh``; ``rpm -qi``
#: is a query): program -> the mode letters that install or remove
INSTALLER_MODE_LETTERS = {"rpm": "iUFe"}
#: script operands that are code fetched from the network (``deno run https://…``, ``uvx --from git+https://…``)
REMOTE_CODE_PREFIXES = ("http://", "https://", "ftp://", "git+", "github:", "gitlab:", "bitbucket:", "gist:")
#: programs that fetch a package and run its command (the command counts too)
PACKAGE_RUNNERS = frozenset(("npx", "bunx", "pnpm", "yarn", "bun", "pipx", "uvx"))
