use crate::args::Args;
pub fn dump(_args: Args) -> Result<(), String> { Err("todo".into()) }
