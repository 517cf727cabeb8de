"""Options programs take before their subcommand (``helm -n prod uninstall api``): GLOBAL_OPTS, read by
:func:`core.policy.shell.options._global_readings` for every program listed (the registry wraps its handler).

To add a rule: add the program with its options that take a value and those that take none. Test it in the
family's file under ``tests/core/policy/``.
"""

from __future__ import annotations

#: options a program takes before its subcommand: program -> (options that take a value, options that take
#: none). The subcommand is the first word after them (``helm -n prod uninstall api`` is ``helm uninstall``,
#: ``pulumi -s prod destroy`` is ``pulumi destroy``). An option in neither set may take the next word as its
#: value or not: both readings count and the higher tier decides (``helm --x get uninstall a`` is an uninstall
#: when --x takes no value)
_K8S_WITH_ARG = ("--kubeconfig", "--context", "--kube-context", "--cluster", "--user", "--token", "--as",
                 "--as-group", "--certificate-authority", "--client-certificate", "--client-key", "--server",
                 "--request-timeout", "--cache-dir", "--tls-server-name", "--as-uid", "--log-file")
_JS_FLAGS = ("-g", "--global", "-s", "--silent", "-q", "--quiet", "--verbose", "-y", "--yes", "--json",
             "--offline", "--prefer-offline", "--prefer-online", "-f", "--force", "--ignore-scripts", "--no-color",
             "--frozen-lockfile", "--production", "--prod", "-D", "--dev", "-P", "-h", "--help")
_NPM_WITH_ARG = ("--prefix", "-C", "-w", "--workspace", "--registry", "--userconfig", "--globalconfig", "--cache",
                 "--loglevel", "--tag", "--access", "--otp", "--scope", "--include", "--omit", "--before",
                 "--script-shell", "--node-options", "--auth-type", "--cafile", "--proxy", "--https-proxy")
_NPM_FLAGS = _JS_FLAGS + ("-d", "-dd", "-ddd", "-ws", "--workspaces", "--include-workspace-root",
                          "--legacy-peer-deps", "--if-present", "--no-audit", "--no-fund", "--no-progress")
_YARN_WITH_ARG = ("--cwd", "--modules-folder", "--cache-folder", "--global-folder", "--link-folder", "--mutex",
                  "--network-timeout", "--network-concurrency", "--use-yarnrc", "--registry", "--proxy",
                  "--https-proxy", "--otp")
_YARN_FLAGS = _JS_FLAGS + ("--immutable", "--pure-lockfile", "--non-interactive", "--ignore-engines", "-W",
                           "--ignore-workspace-root-check", "--no-progress", "--check-files", "--flat")
_PNPM_WITH_ARG = ("-C", "--dir", "--filter", "-F", "--filter-prod", "--reporter", "--store-dir",
                  "--virtual-store-dir", "--registry", "--loglevel", "--workspace-concurrency", "--test-pattern",
                  "--changed-files-ignore-pattern")
_PNPM_FLAGS = _JS_FLAGS + ("-r", "--recursive", "-w", "--workspace-root", "--stream", "--parallel", "--no-bail",
                           "--shamefully-hoist", "--aggregate-output", "--color", "--include-workspace-root",
                           "--fail-if-no-match", "--no-sort")
_BUN_WITH_ARG = ("--cwd", "-c", "--config", "--env-file", "-r", "--preload")
_BUN_FLAGS = _JS_FLAGS + ("--bun", "-b", "--watch", "--hot", "--smol", "--no-install", "-i")
GLOBAL_OPTS: dict[str, tuple[frozenset, frozenset]] = {
    "helm": (frozenset(_K8S_WITH_ARG + ("-n", "--namespace", "--kube-apiserver", "--kube-as-user",
                                        "--kube-as-group", "--kube-ca-file", "--kube-token", "--kube-tls-server-name",
                                        "--registry-config", "--repository-cache", "--repository-config",
                                        "--burst-limit", "--qps", "--content-cache")),
             frozenset(("--debug", "--kube-insecure-skip-tls-verify", "-h", "--help"))),
    "pulumi": (frozenset(("-C", "--cwd", "-s", "--stack", "--color", "--tracing", "--tracing-header",
                          "--memprofilerate", "--profiling", "--config-file", "--logflow-file", "--otel-traces",
                          "-v", "--verbose")),
               frozenset(("--non-interactive", "--logflow", "--logtostderr", "-e", "--emoji", "-y", "--yes",
                          "--skip-preview", "-f", "--disable-integrity-checking", "--debug", "--diff", "--fully-qualify-stack-names", "--suppress-outputs", "--json", "-j"))),
    "cdk": (frozenset(("-a", "--app", "-c", "--context", "-p", "--plugin", "--profile", "--proxy",
                       "--ca-bundle-path", "-o", "--output", "-r", "--role-arn", "--toolkit-stack-name",
                       "--require-approval", "-b", "--build", "--ci-notices", "--unstable")),
            frozenset(("-j", "--json", "-v", "--verbose", "--debug", "--ec2creds", "--strict", "--ignore-errors",
                       "--lookups", "--asset-metadata", "--path-metadata", "--staging", "--no-color", "--ci",
                       "--notices", "--no-notices", "-f", "--force", "--all", "--version-reporting"))),
    "npm": (frozenset(_NPM_WITH_ARG), frozenset(_NPM_FLAGS)),
    "yarn": (frozenset(_YARN_WITH_ARG), frozenset(_YARN_FLAGS)),
    "pnpm": (frozenset(_PNPM_WITH_ARG), frozenset(_PNPM_FLAGS)),
    "bun": (frozenset(_BUN_WITH_ARG), frozenset(_BUN_FLAGS)),
    "cargo": (frozenset(("--color", "--config", "-Z", "-C", "--explain", "--manifest-path", "--target-dir",
                         "--target", "-j", "--jobs", "-p", "--package", "--registry", "--index", "--token")),
              frozenset(("-v", "-vv", "--verbose", "-q", "--quiet", "--frozen", "--locked", "--offline", "--list",
                         "-V", "--version", "--release", "-r", "--all-features", "--no-default-features"))),
    "gem": (frozenset(("--config-file",)), frozenset(("--backtrace", "--debug", "-q", "--quiet", "--verbose",
                                                      "--norc", "-V"))),
    "pip": (frozenset(("--proxy", "--cert", "--client-cert", "--cache-dir", "--log", "--timeout", "--retries",
                       "--exists-action", "--trusted-host", "--python", "--log-file", "--progress-bar",
                       "--use-feature", "--use-deprecated", "--keyring-provider")),
            frozenset(("-v", "-vv", "-vvv", "--verbose", "-q", "-qq", "--quiet", "--isolated", "--require-virtualenv",
                       "--no-input", "--no-cache-dir", "--disable-pip-version-check", "--no-color",
                       "--no-python-version-warning", "--debug", "-V", "--version"))),
    "poetry": (frozenset(("-C", "--directory", "-P", "--project")),
               frozenset(("-v", "-vv", "-vvv", "--verbose", "-q", "--quiet", "-n", "--no-interaction", "--ansi",
                          "--no-ansi", "--no-plugins", "--no-cache"))),
    "uv": (frozenset(("--directory", "--project", "--cache-dir", "--config-file", "--python-preference",
                      "--color", "--python", "-p", "--index-url", "--allow-insecure-host")),
           frozenset(("-q", "--quiet", "-v", "--verbose", "--no-cache", "-n", "--offline", "--no-progress",
                      "--native-tls", "--no-config", "--frozen", "--locked", "--preview", "--no-python-downloads"))),
    "docker": (frozenset(("-H", "--host", "--context", "-c", "--config", "--log-level", "-l", "--tlscacert",
                          "--tlscert", "--tlskey")),
               frozenset(("-D", "--debug", "--tls", "--tlsverify", "-v", "--version", "-h", "--help"))),
    "podman": (frozenset(("--url", "--connection", "-c", "--identity", "--root", "--runroot", "--storage-driver",
                          "--storage-opt", "--log-level", "--cgroup-manager", "--conmon", "--events-backend",
                          "--hooks-dir", "--network-cmd-path", "--network-config-dir", "--runtime",
                          "--runtime-flag", "--tmpdir", "--volumepath", "--module", "--imagestore", "--ssh",
                          "--out", "--config", "--cni-config-dir", "--db-backend")),
               frozenset(("-r", "--remote", "--syslog", "--debug", "-D", "--noout", "--transient-store",
                          "-v", "--version", "-h", "--help"))),
    "nerdctl": (frozenset(("-H", "--host", "--address", "-a", "-n", "--namespace", "--snapshotter",
                           "--cni-path", "--cni-netconfpath", "--data-root", "--cgroup-manager", "--hosts-dir",
                           "--storage-driver")),
                frozenset(("--debug", "--debug-full", "--insecure-registry", "-v", "--version", "-h", "--help"))),
    "crictl": (frozenset(("-r", "--runtime-endpoint", "-i", "--image-endpoint", "-t", "--timeout", "-c",
                          "--config")),
               frozenset(("-D", "--debug", "-v", "--version", "-h", "--help"))),
    "ctr": (frozenset(("-a", "--address", "-n", "--namespace", "--timeout", "--connect-timeout")),
            frozenset(("--debug", "-v", "--version", "-h", "--help"))),
    "kubectl": (frozenset(_K8S_WITH_ARG + ("-n", "--namespace", "-s", "-v", "--v", "--profile",
                                           "--profile-output", "--password", "--username", "--vmodule")),
                frozenset(("--insecure-skip-tls-verify", "--match-server-version", "--warnings-as-errors",
                           "--disable-compression", "-A", "--all-namespaces", "-h", "--help"))),
    "terraform": (frozenset(), frozenset(("-help", "--help", "-version", "--version", "-v"))),
    "http": (frozenset(("-a", "--auth", "-A", "--auth-type", "-o", "--output", "--session", "--session-read-only",
                        "--verify", "--cert", "--cert-key", "--cert-key-pass", "--proxy", "--timeout",
                        "--max-redirects", "-s", "--style", "--pretty", "-p", "--print", "--format-options",
                        "--response-charset", "--response-mime", "--ssl", "--ciphers", "--default-scheme",
                        "--boundary", "--raw", "--max-headers", "--unsorted", "--bearer", "--resolve",
                        "--interface", "--local-port", "--http-version", "-P", "--history-print")),
             frozenset(("-j", "--json", "-f", "--form", "--multipart", "-v", "--verbose", "-h", "--headers",
                        "-b", "--body", "-m", "--meta", "-q", "--quiet", "-d", "--download", "-c", "--continue",
                        "-F", "--follow", "--all", "--offline", "--chunked", "-x", "--compress", "-S", "--stream",
                        "-I", "--ignore-stdin", "--check-status", "--ignore-netrc", "--path-as-is", "--sorted",
                        "--https", "--http1", "--http2", "--http3", "--debug", "--traceback", "--help",
                        "--version", "--no-check-status", "--native-tls", "--curl", "--curl-long"))),
    "docker-compose": (frozenset(("-f", "--file", "-p", "--project-name", "--project-directory", "--env-file",
                                  "--profile", "--ansi", "--progress", "--parallel", "-H", "--host", "--context",
                                  "--log-level")),
                       frozenset(("--verbose", "--compatibility", "--dry-run", "--all-resources", "--no-ansi",
                                  "-v", "--version", "-h", "--help", "--skip-hostname-check", "--tls",
                                  "--tlsverify"))),
    "gh": (frozenset(("-R", "--repo", "--hostname")), frozenset(("--help", "--version", "-h"))),
    "bq": (frozenset(("--project_id", "--dataset_id", "--location", "--format", "--api", "--api_version",
                      "--credential_file", "--service_account", "--service_account_credential_file",
                      "--apilog", "--job_id", "--max_rows_per_request", "--trace", "--httplib2_debuglevel",
                      "--bigqueryrc", "--ca_certificates_file", "--proxy_address", "--proxy_port",
                      "--universe_domain", "--job_property")),
           frozenset(("-q", "--quiet", "--headless", "--noheadless", "--synchronous_mode", "--nosynchronous_mode",
                      "--enable_gdrive", "--noenable_gdrive", "--debug_mode", "--nodebug_mode", "--use_gce_service_account",
                      "--fingerprint_job_id", "--nofingerprint_job_id", "--help", "--version"))),
    "systemctl": (frozenset(("-H", "--host", "-M", "--machine", "-t", "--type", "-p", "--property", "--state",
                             "-s", "--signal", "--kill-whom", "--kill-value", "--root", "--image", "-n", "--lines",
                             "-o", "--output", "--job-mode", "--what", "--timestamp", "--preset-mode",
                             "--boot-loader-entry", "--boot-loader-menu", "--message", "--when", "--legend",
                             "--check-inhibitors", "--image-policy", "--drop-in", "--reboot-argument")),
                  frozenset(("--user", "--system", "--global", "--no-pager", "--now", "-q", "--quiet", "-a",
                             "--all", "-l", "--full", "--failed", "--no-block", "--no-legend", "-f", "--force",
                             "--runtime", "--no-reload", "--no-ask-password", "--plain", "-r", "--recursive",
                             "--show-types", "--value", "--wait", "--no-wall", "-i", "--ignore-inhibitors",
                             "--firmware-setup", "--reverse", "--after", "--before", "--with-dependencies",
                             "--show-transaction", "-T", "--marked", "--read-only", "--mkdir", "-h", "--help"))),
    "loginctl": (frozenset(("-H", "--host", "-M", "--machine", "-p", "--property", "-s", "--signal",
                            "--kill-whom", "-n", "--lines", "-o", "--output")),
                 frozenset(("--no-pager", "--no-legend", "--no-ask-password", "-a", "--all", "-l", "--full",
                            "--value", "-i", "--ignore-inhibitors", "-h", "--help", "-j", "--json"))),
    "redis-cli": (frozenset(("-h", "-p", "-s", "-a", "-u", "-r", "-i", "-n", "-d", "-D", "--user", "--pass",
                             "--cacert", "--cacertdir", "--cert", "--key", "--tls-ciphers", "--tls-ciphersuites",
                             "--sni", "--pattern", "--count", "--rdb", "--functions-rdb", "--pipe-timeout",
                             "--memkeys-samples", "--eval", "-t")),
                  frozenset(("-c", "-e", "-x", "-X", "--raw", "--no-raw", "--no-auth-warning", "--tls",
                             "--insecure", "--csv", "--json", "--quoted-json", "--quoted-input", "--verbose", "-2",
                             "-3", "--askpass", "--scan", "--bigkeys", "--memkeys", "--hotkeys", "--stat",
                             "--latency", "--latency-history", "--latency-dist", "--pipe", "--no-pager",
                             "--show-pushes", "--help", "--version", "-v"))),
    "terragrunt": (frozenset(("--terragrunt-working-dir", "--terragrunt-config", "--terragrunt-source",
                              "--terragrunt-source-map", "--terragrunt-iam-role", "--terragrunt-download-dir",
                              "--terragrunt-log-level", "--terragrunt-parallelism", "--terragrunt-include-dir",
                              "--terragrunt-exclude-dir", "--terragrunt-tfpath", "--terragrunt-iam-assume-role",
                              "--working-dir", "--config", "--source", "--source-map", "--iam-assume-role",
                              "--download-dir", "--log-level", "--parallelism", "--queue-include-dir",
                              "--queue-exclude-dir", "--tf-path", "--log-format", "--iam-role")),
                   frozenset(("--terragrunt-non-interactive", "--terragrunt-ignore-dependency-errors",
                              "--terragrunt-no-auto-init", "--terragrunt-debug", "--non-interactive",
                              "--no-auto-init", "--all", "--help", "-help", "--version", "-version"))),
    "argocd": (frozenset(("--server", "--auth-token", "--config", "--header", "-H", "--kube-context",
                          "--port-forward-namespace", "--loglevel", "--logformat", "--client-crt",
                          "--client-crt-key", "--server-crt", "--server-name", "--redis-name",
                          "--repo-server-name", "--redis-haproxy-name", "--http-retry-max", "--grpc-web-root-path")),
               frozenset(("--grpc-web", "--insecure", "--plaintext", "--port-forward", "--core", "-h", "--help"))),
}
for _p in ("tofu", "terramate"):
    GLOBAL_OPTS[_p] = GLOBAL_OPTS["terraform"]
for _p in ("https", "xh", "xhs", "httpie"):
    GLOBAL_OPTS[_p] = GLOBAL_OPTS["http"]
GLOBAL_OPTS["podman-compose"] = GLOBAL_OPTS["docker-compose"]
for _p in ("pip3",):
    GLOBAL_OPTS[_p] = GLOBAL_OPTS["pip"]
for _p in ("oc", "k", "microk8s.kubectl"):
    GLOBAL_OPTS[_p] = GLOBAL_OPTS["kubectl"]
#: more than this many options of unknown shape before a subcommand: its readings are not all followed
MAX_OPTION_READINGS = 6
