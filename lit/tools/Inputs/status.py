# Runs a command and prints its exit status (negative: killed by that signal, e.g. a crash).
import subprocess
import sys

result = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
print(f"exit status {result.returncode}")
