//! The baseline of the binary-size probe: what a Rust "hello world" costs when built with the
//! same profile (`size`) as `examples/size_probe.rs`. `.ci/size` reports the difference.

fn main() {
    println!("Hello, world!");
}
