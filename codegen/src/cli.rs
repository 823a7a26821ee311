//! Command-line conventions the tools share: LLVM's single-dash spelling of long options.
//!
//! LLVM tools (`llvm-mc`, `mlir-opt`) accept `-disassemble` and `-split-input-file` as well as
//! the double-dash forms; clap accepts only the latter. [`llvm_single_dash`] rewrites the
//! single-dash spelling of every long option the tool's clap command defines, so the list of
//! options is stated once, in the command itself.

use std::ffi::OsString;

/// Rewrites `-name` and `-name=value` to `--name` / `--name=value` for every long option of
/// `cmd` (its `--help` and `--version` included). Short options (`-o FILE`, `-oFILE`), `-`,
/// arguments that are not UTF-8 and everything after `--` pass unchanged; the first argument
/// (the program name) too.
pub fn llvm_single_dash(
    args: impl IntoIterator<Item = OsString>,
    cmd: &clap::Command,
) -> Vec<OsString> {
    let mut longs: Vec<&str> = cmd.get_arguments().filter_map(|a| a.get_long()).collect();
    longs.extend(["help", "version"]);
    let mut rest = false;
    args.into_iter()
        .enumerate()
        .map(|(i, a)| {
            if i == 0 || rest {
                return a;
            }
            if a == "--" {
                rest = true;
                return a;
            }
            if let Some(body) = a.to_str().and_then(|t| t.strip_prefix('-'))
                && !body.starts_with('-')
                && longs.contains(&body.split('=').next().unwrap_or(""))
            {
                return OsString::from(format!("--{body}"));
            }
            a
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cmd() -> clap::Command {
        clap::Command::new("t")
            .arg(clap::Arg::new("target").long("target"))
            .arg(
                clap::Arg::new("lift")
                    .long("lift")
                    .action(clap::ArgAction::SetTrue),
            )
            .arg(clap::Arg::new("o").short('o'))
    }

    fn run(args: &[&str]) -> Vec<String> {
        llvm_single_dash(args.iter().map(OsString::from), &cmd())
            .into_iter()
            .map(|a| a.into_string().unwrap())
            .collect()
    }

    #[test]
    fn long_options_take_one_dash_short_ones_and_operands_do_not_change() {
        assert_eq!(
            run(&[
                "t",
                "-lift",
                "-target=sunda",
                "-target",
                "x",
                "-o",
                "out",
                "-oout",
                "-",
                "in"
            ]),
            [
                "t",
                "--lift",
                "--target=sunda",
                "--target",
                "x",
                "-o",
                "out",
                "-oout",
                "-",
                "in"
            ]
        );
        assert_eq!(run(&["t", "--", "-lift"]), ["t", "--", "-lift"]);
        assert_eq!(run(&["-lift"]), ["-lift"], "the program name is left alone");
        assert_eq!(run(&["t", "-help", "-nope"]), ["t", "--help", "-nope"]);
    }
}
