//! The `parket` command-line tool.
mod json;
mod rows;

fn main() {
    eprintln!("parket: no commands yet");
    std::process::exit(1);
}
