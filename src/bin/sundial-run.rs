//! `sundial-run`: see [`sundial::run`].

fn main() {
    let args: Vec<std::ffi::OsString> = std::env::args_os().collect();
    let status = match sundial::with_big_stack(move || sundial::run::cli::main_with_args(args)) {
        Ok(status) => status,
        Err(msg) => {
            eprintln!("sundial-run: error: {msg}");
            1
        }
    };
    std::process::exit(status);
}
