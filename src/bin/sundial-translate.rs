//! `sundial-translate`: see [`sundial::translate`].

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let status = match sundial::with_big_stack(move || sundial::translate::main_with_args(args)) {
        Ok(status) => status,
        Err(msg) => {
            eprintln!("sundial-translate: error: {msg}");
            1
        }
    };
    std::process::exit(status);
}
