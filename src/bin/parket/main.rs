//! The `parket` command-line tool.
fn main() {
    eprintln!("parket: no commands yet");
    std::process::exit(1);
}
