//! Operating cairn (issue 15): `/health`, `/ready`, `/metrics`, and the operator's commands on
//! the test database (`cairn user password`, `language`, `check`, `backup`, `import`),
//! in-process and through the binary, servers that stop under load, a database that is away,
//! and where a server keeps its files. `import` serves the
//! storage tests too.

mod commands;
mod endpoints;
mod imports;
mod outages;
mod places;
mod signals;

pub(crate) use imports::import;
