"""The call tables of the inline-code readers: which calls of each language do what (data).

Python (read with ``ast``, :mod:`core.policy.code.python`):
    :data:`PY_CALLS`      calls by their dotted name (``os.system``, ``subprocess.run`` …) -> how they are read;
    :data:`PATH_METHODS`  methods of :class:`pathlib.Path` values -> how.

To read a new call: add its name here with an existing "how" (the comments above each table say what each one
reads) and a case to ``tests/core/policy/test_code.py``; a new "how" is handled by the reader that uses the table.
"""

from __future__ import annotations

# ------------------------------------------------------------------------------------------- tables
#: Python calls by their dotted name -> how their arguments are read:
#:   cmd      a shell command (one string) or program and arguments (a list)
#:   sp       subprocess style: a string or a list; ``stdin=``/``stdout=`` a socket ties them to it
#:   argv_s   program and arguments as separate strings (``asyncio.create_subprocess_exec``)
#:   exec_l   program path, then its argv as strings (``os.execl``); ``spawn_l``: a mode first
#:   exec_v   program path, then its argv as a list (``os.execv``); ``spawn_v``: a mode first
#:   pty      ``pty.spawn``: a program name or an argv list
#:   rmtree, delete, write, read   the first argument is the path; ``open``/``os_open``: by the mode or flags
#:   copy     read the first, write the second; ``move``: delete the first, write the second
#:   write2   write the second argument (``os.symlink(src, dst)``)
#:   pycode   Python code (``exec``, ``eval``, ``compile``)
#:   connect  a socket connection to the address in the first argument; ``sendto``: in the second
#:   http     a web client given a URL first (``urlopen``, ``requests.post``): the connection is "SCHEME://HOST",
#:            what it returns is received data; ``connect_hp``: a client given a host and port (``smtplib.SMTP``)
#:   bind     a listening address (``s.bind((h, p))``); ``listen``: a listening socket or server
#:   server   a server bound to the address in its first argument (``HTTPServer((h, p), H)``)
#:   dup2     ``os.dup2(fd, n)``: with a socket's descriptor, standard input/output tied to the socket
#:   chdir    the working directory (a server started later serves it)
#:   partial  ``functools.partial(Handler, directory=…)``: the directory a server serves
PY_CALLS: dict[str, str] = {
    "os.system": "cmd", "os.popen": "cmd", "os.popen2": "cmd", "os.popen3": "cmd", "os.popen4": "cmd",
    "commands.getoutput": "cmd", "commands.getstatusoutput": "cmd", "platform.popen": "cmd",
    "subprocess.run": "sp", "subprocess.call": "sp", "subprocess.check_call": "sp", "subprocess.check_output": "sp",
    "subprocess.Popen": "sp", "subprocess.getoutput": "cmd", "subprocess.getstatusoutput": "cmd",
    "asyncio.create_subprocess_shell": "cmd", "asyncio.create_subprocess_exec": "argv_s",
    "os.execl": "exec_l", "os.execlp": "exec_l", "os.execle": "exec_l", "os.execlpe": "exec_l",
    "os.execv": "exec_v", "os.execvp": "exec_v", "os.execve": "exec_v", "os.execvpe": "exec_v",
    "os.spawnl": "spawn_l", "os.spawnlp": "spawn_l", "os.spawnle": "spawn_l", "os.spawnlpe": "spawn_l",
    "os.spawnv": "spawn_v", "os.spawnvp": "spawn_v", "os.spawnve": "spawn_v", "os.spawnvpe": "spawn_v",
    "os.posix_spawn": "exec_v", "os.posix_spawnp": "exec_v", "pty.spawn": "pty",
    "shutil.rmtree": "rmtree", "os.remove": "delete", "os.unlink": "delete", "os.rmdir": "delete",
    "os.removedirs": "delete", "shutil.copy": "copy", "shutil.copy2": "copy", "shutil.copyfile": "copy",
    "shutil.copytree": "copy", "shutil.move": "move", "os.rename": "move", "os.replace": "move",
    "os.renames": "move", "os.symlink": "write2", "os.link": "write2", "os.chmod": "write", "os.chown": "write",
    "os.lchown": "write", "os.truncate": "write", "os.mkdir": "write", "os.makedirs": "write",
    "os.mkfifo": "write", "os.mknod": "write",
    "open": "open", "io.open": "open", "codecs.open": "open", "os.open": "os_open", "io.FileIO": "open",
    "exec": "pycode", "eval": "pycode", "compile": "pycode",
    "socket.create_connection": "connect", "socket.connect": "connect", "socket.connect_ex": "connect",
    "socket.sendto": "sendto", "socket.bind": "bind", "socket.listen": "listen", "socket.accept": "listen",
    "socket.create_server": "server", "telnetlib.Telnet": "connect_hp",
    "urllib.request.urlopen": "http", "urllib.request.Request": "http", "urllib.request.urlretrieve": "http",
    "urllib2.urlopen": "http", "http.client.HTTPConnection": "http", "http.client.HTTPSConnection": "http",
    "smtplib.SMTP": "connect_hp", "smtplib.SMTP_SSL": "connect_hp", "ftplib.FTP": "connect_hp",
    "ftplib.FTP_TLS": "connect_hp",
    "requests.get": "http", "requests.post": "http", "requests.put": "http", "requests.patch": "http",
    "requests.delete": "http", "requests.head": "http", "requests.request": "http", "httpx.get": "http",
    "httpx.post": "http", "httpx.put": "http", "httpx.patch": "http", "httpx.request": "http",
    "http.server.HTTPServer": "server", "http.server.ThreadingHTTPServer": "server",
    "socketserver.TCPServer": "server", "socketserver.ThreadingTCPServer": "server",
    "socketserver.ForkingTCPServer": "server", "socketserver.UDPServer": "server",
    "socketserver.ThreadingUDPServer": "server", "xmlrpc.server.SimpleXMLRPCServer": "server",
    "SimpleHTTPServer.test": "listen", "http.server.test": "listen", "BaseHTTPServer.HTTPServer": "server",
    "SocketServer.TCPServer": "server", "wsgiref.simple_server.make_server": "server",
    "asyncio.start_server": "server", "asyncio.start_unix_server": "listen",
    "os.dup2": "dup2", "os.chdir": "chdir", "functools.partial": "partial", "pexpect.spawn": "cmd",
    "pexpect.run": "cmd",
}
#: methods of :class:`pathlib.Path` values -> how (the path is the value's)
PATH_METHODS = {
    "read_text": "read", "read_bytes": "read", "open": "open", "write_text": "write", "write_bytes": "write",
    "touch": "write", "mkdir": "write", "chmod": "write", "symlink_to": "write", "hardlink_to": "write",
    "unlink": "delete", "rmdir": "delete", "rename": "move", "replace": "move",
}
