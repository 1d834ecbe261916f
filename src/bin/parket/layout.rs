use crate::args::Args;
pub fn layout(_args: Args) -> Result<(), String> { Err("todo".into()) }
