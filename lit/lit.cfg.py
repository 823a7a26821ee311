# lit configuration of Sundial's IR test suite.
#
# Run through `cargo test --test lit` (which builds the tools first and points
# SUNDIAL_BIN_DIR at them), or directly with LLVM's lit:
#   SUNDIAL_BIN_DIR=target/debug /usr/lib/llvm-22/bin/lit -sv lit
import os

import lit.formats

config.name = "Sundial"
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".mlir", ".test"]
config.excludes = ["Inputs"]
config.test_source_root = os.path.dirname(__file__)

bin_dir = os.environ.get("SUNDIAL_BIN_DIR")
if not bin_dir:
    lit_config.fatal("SUNDIAL_BIN_DIR must point at the directory holding sundial-opt")
# Absolute, so that PATH also works for commands that tests start from their own directory.
bin_dir = os.path.abspath(bin_dir)
llvm_tools = os.environ.get("LLVM_TOOLS_DIR", "/usr/lib/llvm-22/bin")
# Temporary files (%t) go to the build directory, never into the source tree.
config.test_exec_root = os.environ.get("SUNDIAL_LIT_EXEC_ROOT", os.path.join(bin_dir, "lit-output"))

config.environment["PATH"] = os.pathsep.join(
    [bin_dir, llvm_tools, config.environment.get("PATH", os.environ.get("PATH", ""))]
)
