//! HTTP tests of cairn, one module per resource family, run against SQLite by default and
//! against PostgreSQL when `CAIRN_TEST_DATABASE_URL` names one.

mod support;

mod bookmarks;
mod caching;
mod client;
mod codecs;
mod content;
mod content_types;
mod dialects;
mod events;
mod freshness;
mod fuzz;
mod graphql;
mod http_cache;
mod images;
mod locations;
mod migrate;
mod object_states;
mod operating;
mod permissions;
mod protocol;
mod readme;
mod roles;
mod root;
mod sections;
mod sessions;
mod spec_examples;
mod statements;
mod storable;
mod storage;
mod tokens;
mod trash;
mod uploads;
mod url_aliases;
mod users;
mod varnish;
mod views;
