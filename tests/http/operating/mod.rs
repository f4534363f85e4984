//! Operating cairn (issue 15): `/health`, `/ready`, `/metrics`, and the operator's commands on
//! the test database (`cairn user password`, `language`, `check`, `backup`, `import`),
//! in-process and through the binary, and servers that stop under load. `import` serves the
//! storage tests too.

mod commands;
mod endpoints;
mod imports;
mod signals;

pub(crate) use imports::import;
