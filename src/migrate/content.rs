//! Content items (`ezcontentobject`) with every version (`ezcontentobject_version`), the
//! names of each version (`ezcontentobject_name`), their fields (`ezcontentobject_attribute`
//! and the external tables of `values`), relations (`ezcontentobject_link`), Object states
//! and user accounts, and the full-text documents of the published versions: a batch of
//! content items at a time, everything of one batch read with one statement per table, the
//! next batch read while one is written (`ahead`).

use super::ahead::{Ahead, Reader};
use super::source::{BATCH, Row, Source};
use super::target::{Insert, Rows, Target};
use super::values::{Extras, convert};
use super::{Cx, states, users};
use crate::full_text::Document;
use anyhow::{Result, anyhow};
use serde_json::{Map, Value};
use std::collections::{BTreeMap, HashMap, HashSet};
use tokio::sync::mpsc;

const CONTENT: &[&str] = &[
    "id",
    "contentclass_id",
    "section_id",
    "owner_id",
    "remote_id",
    "initial_language_id",
    "language_mask",
    "current_version",
    "status",
    "published",
    "modified",
    "name",
];

const VERSION: &[&str] = &[
    "id",
    "contentobject_id",
    "version",
    "status",
    "creator_id",
    "created",
    "modified",
    "initial_language_id",
    "language_mask",
];

const FIELD: &[&str] = &[
    "id",
    "version",
    "contentobject_id",
    "contentclassattribute_id",
    "data_type_string",
    "language_code",
    "data_int",
    "data_float",
    "data_text",
];

/// Everything of one batch of content items, read from the source.
pub struct Batch {
    rows: Vec<Row>,
    versions: Vec<Row>,
    names: Vec<Row>,
    fields: Vec<Row>,
    extras: Extras,
    relations: Vec<Row>,
    states: Vec<Row>,
}

/// Reads the content items a batch at a time (by id), everything of theirs with one
/// statement per table.
#[derive(Default)]
struct Items {
    after: Option<i64>,
    /// Whether `ezcontentobject` has `is_hidden` (4.x): looked up once.
    hidden: Option<bool>,
    done: bool,
}

impl Reader for Items {
    type Batch = Batch;

    async fn next(&mut self, src: &Source) -> Result<Option<Batch>> {
        if self.done {
            return Ok(None);
        }
        let hidden = match self.hidden {
            Some(h) => h,
            None => {
                let columns = src.columns("ezcontentobject").await?;
                *self.hidden.insert(columns.iter().any(|c| c == "is_hidden"))
            }
        };
        let mut columns = CONTENT.to_vec();
        if hidden {
            columns.push("is_hidden");
        }
        let after = self.after.unwrap_or(i64::MIN);
        let rows = (src.batch_after("ezcontentobject", &columns, "id", after, "")).await?;
        let (Some(first), Some(last)) = (rows.first(), rows.last()) else {
            return Ok(None);
        };
        // The batch is every content item with an id in this range (read in id order): the
        // rows of each table for it are one range of that table's index by content item.
        let items = (first.int("id"), last.int("id"));
        self.after = Some(items.1);
        self.done = rows.len() < BATCH;
        let of_items = format!("contentobject_id BETWEEN {} AND {}", items.0, items.1);
        let of_sources = format!("from_contentobject_id BETWEEN {} AND {}", items.0, items.1);
        // The batch's statements run at once, each on a connection of the source's pool (the
        // old site's database works on them side by side); the external tables' after the
        // fields that name their rows. The fields are put in order here, not by the source
        // (a sort of whole rows, their texts with them, on the old site's server).
        let (versions, names, mut fields, relations, states, users) = tokio::try_join!(
            src.select("ezcontentobject_version", VERSION, &of_items, "id"),
            src.select(
                "ezcontentobject_name",
                &[
                    "contentobject_id",
                    "content_version",
                    "content_translation",
                    "name",
                ],
                &of_items,
                "",
            ),
            src.select("ezcontentobject_attribute", FIELD, &of_items, ""),
            src.select(
                "ezcontentobject_link",
                &[
                    "id",
                    "from_contentobject_id",
                    "from_contentobject_version",
                    "to_contentobject_id",
                    "relation_type",
                    "contentclassattribute_id",
                ],
                &of_sources,
                "id",
            ),
            states::read_links(src, items),
            users::accounts(src, items),
        )?;
        fields.sort_by_cached_key(|f| (f.int("id"), f.int("version")));
        let mut extras = extras(src, &fields).await?;
        extras.users = users;
        Ok(Some(Batch {
            rows,
            versions,
            names,
            fields,
            extras,
            relations,
            states,
        }))
    }
}

/// One batch converted: the rows of each table, in the order they are written, and the
/// full-text documents of its published items.
pub struct Converted {
    rows: Vec<Rows>,
    documents: BTreeMap<i64, String>,
}

/// The content items, a pipeline of three: the source's batches are read ahead (`ahead`),
/// converted, and written, each batch converted while the one before is written. On a
/// multi-threaded runtime the conversion runs on a thread of its own (the write, SQLite's
/// work included, runs on this one); on a single-threaded one they take turns. At most one
/// converted batch waits while one is written (a bounded channel of one place, taken before
/// a batch is converted). A failed write stops the conversion; a failed conversion ends the
/// writes after the batches before it, and either error is the migration's.
pub async fn contents(cx: &mut Cx<'_>) -> Result<()> {
    let out = cx.out;
    let items = Ahead::start(cx.src.clone(), Items::default());
    let (tx, rx) = mpsc::channel(1);
    let multi = tokio::runtime::Handle::current().runtime_flavor()
        == tokio::runtime::RuntimeFlavor::MultiThread;
    let (converted, written) = if multi {
        let handle = tokio::runtime::Handle::current();
        tokio::task::block_in_place(|| {
            std::thread::scope(|s| {
                let converting = std::thread::Builder::new()
                    .name("migrate-convert".into())
                    .spawn_scoped(s, || handle.block_on(converting(cx, items, tx)))
                    .map_err(|e| anyhow!("cannot start the conversion's thread: {e}"));
                let written = handle.block_on(writing(out, rx));
                let converted = match converting {
                    Ok(t) => t
                        .join()
                        .unwrap_or_else(|_| Err(anyhow!("the conversion panicked"))),
                    Err(e) => Err(e),
                };
                (converted, written)
            })
        })
    } else {
        tokio::join!(converting(cx, items, tx), writing(out, rx))
    };
    written?;
    let (extra_relations, max_relation) = converted?;
    // Relations of several types at once in the source: one row per type here, the first
    // with the source's id, the others after the highest.
    let mut rows = Vec::new();
    for (i, mut r) in extra_relations.into_iter().enumerate() {
        let Insert { values, .. } = &mut r;
        values.insert(0, (max_relation + 1 + i as i64).into());
        rows.push(r);
    }
    out.insert("content_relations", RELATION_COLUMNS, rows)
        .await
}

/// Converts the batches of `items` and sends them to the writer; the relations of several
/// types (one row per type after the first) and the highest relation id, for the end. Stops
/// without an error when the writer is gone (its error is the migration's).
async fn converting(
    cx: &mut Cx<'_>,
    mut items: Ahead<Batch>,
    tx: mpsc::Sender<Converted>,
) -> Result<(Vec<Insert>, i64)> {
    let mut extra_relations = Vec::new();
    let mut max_relation = 0;
    // How long the conversion waited for the writer, for the source, and worked (logged:
    // which stage holds the pipeline up).
    let mut waited = [std::time::Duration::ZERO; 3];
    let mut clock = std::time::Instant::now();
    let mut lap = |i: usize| {
        let now = std::time::Instant::now();
        waited[i] += now - clock;
        clock = now;
    };
    // The channel's place is taken before a batch is converted: one batch is converted
    // while one is written, no more.
    while let Ok(place) = tx.reserve().await {
        lap(0);
        let Some(b) = items.next().await? else {
            break;
        };
        lap(1);
        place.send(batch(cx, b, &mut extra_relations, &mut max_relation).await?);
        lap(2);
    }
    let [writer, source, work] = waited.map(|d| d.as_secs_f64());
    tracing::info!(
        "migrate: content items converted in {work:.2} s, waiting {source:.2} s for the \
         source and {writer:.2} s for the writer"
    );
    Ok((extra_relations, max_relation))
}

/// Writes the converted batches, in order.
async fn writing(out: Target<'_>, mut rx: mpsc::Receiver<Converted>) -> Result<()> {
    while let Some(c) = rx.recv().await {
        for rows in c.rows {
            out.insert_rows(rows).await?;
        }
        out.documents(c.documents).await?;
    }
    Ok(())
}

const RELATION_COLUMNS: &[&str] = &[
    "id",
    "source_content_id",
    "source_version_no",
    "destination_content_id",
    "relation_type",
    "source_field_definition_id",
];

async fn batch(
    cx: &mut Cx<'_>,
    b: Batch,
    extra_relations: &mut Vec<Insert>,
    max_relation: &mut i64,
) -> Result<Converted> {
    let rows = &b.rows;
    cx.report.read("content items", rows.len());
    let mut out = Vec::new();
    // The published items' current versions, whose documents the full-text index gets.
    let mut published = HashMap::new();
    for r in rows {
        let status = r.int("status");
        if !(0..=2).contains(&status) {
            cx.report.skip(
                "content items",
                format!("status {status}"),
                r.describe("ezcontentobject"),
            );
            continue;
        }
        cx.contents.insert(r.int("id"));
        if status == 1 {
            published.insert(r.int("id"), r.int("current_version"));
        }
        out.push(Insert {
            from: r.describe("ezcontentobject"),
            values: vec![
                r.int("id").into(),
                r.int("contentclass_id").into(),
                r.int("section_id").into(),
                r.int("owner_id").into(),
                r.text("remote_id").into(),
                cx.code(r.int("initial_language_id"))
                    .unwrap_or_default()
                    .into(),
                (r.int("language_mask") & 1 == 1).into(),
                r.int("current_version").into(),
                status.into(),
                r.int("published").into(),
                r.int("modified").into(),
                r.flag("is_hidden").into(),
                r.text("name").into(),
            ],
        });
    }
    cx.report.written("content items", out.len());
    cx.progress.advance(rows.len());
    let contents = Rows {
        table: "contents",
        columns: &[
            "id",
            "content_type_id",
            "section_id",
            "owner_id",
            "remote_id",
            "main_language_code",
            "always_available",
            "current_version",
            "status",
            "published",
            "modified",
            "is_hidden",
            "name",
        ],
        rows: out,
    };
    let (carried, versions) = versions(cx, &b.versions, &b.names);
    let users = users::users(cx, &b.extras.users);
    let (fields, documents) = fields(cx, &b.fields, &b.extras, &carried, &published).await;
    let relations = relations(cx, &b.relations, &carried, extra_relations, max_relation);
    let states = states::links(cx, &b.states);
    Ok(Converted {
        rows: vec![contents, versions, users, fields, relations, states],
        documents,
    })
}

/// The versions of the batch (`rows`, their `names`): the (content, version) pairs carried
/// and their rows.
fn versions(cx: &mut Cx<'_>, rows: &[Row], names: &[Row]) -> (HashSet<(i64, i64)>, Rows) {
    let mut by_version: HashMap<(i64, i64), Map<String, Value>> = HashMap::new();
    for n in names {
        (by_version
            .entry((n.int("contentobject_id"), n.int("content_version")))
            .or_default())
        .insert(n.text("content_translation"), n.text("name").into());
    }
    cx.report.read("versions", rows.len());
    cx.progress.advance(rows.len());
    let mut out = Vec::new();
    let mut carried = HashSet::new();
    for r in rows {
        let (content, no, status) = (r.int("contentobject_id"), r.int("version"), r.int("status"));
        let status = match status {
            0 | 5 => 0,
            1 => 1,
            3 => 3,
            s => {
                let why = format!(
                    "status {s} (pending, rejected or repeated): cairn has drafts, published and archived versions"
                );
                cx.report
                    .skip("versions", why, r.describe("ezcontentobject_version"));
                continue;
            }
        };
        if !cx.contents.contains(&content) {
            cx.report.skip(
                "versions",
                "its content item is not carried",
                r.describe("ezcontentobject_version"),
            );
            continue;
        }
        let initial = cx.code(r.int("initial_language_id")).unwrap_or_default();
        let mut codes = vec![initial.clone()];
        codes.extend(
            cx.codes(r.int("language_mask"))
                .into_iter()
                .filter(|c| *c != initial),
        );
        let names = by_version.remove(&(content, no)).unwrap_or_default();
        carried.insert((content, no));
        out.push(Insert {
            from: r.describe("ezcontentobject_version"),
            values: vec![
                r.int("id").into(),
                content.into(),
                no.into(),
                status.into(),
                r.int("creator_id").into(),
                r.int("created").into(),
                r.int("modified").into(),
                initial.into(),
                codes.join(",").into(),
                Value::Object(names).to_string().into(),
            ],
        });
    }
    cx.report.written("versions", out.len());
    let rows = Rows {
        table: "content_versions",
        columns: &[
            "id",
            "content_id",
            "version_no",
            "status",
            "creator_id",
            "created",
            "modified",
            "initial_language_code",
            "language_codes",
            "names",
        ],
        rows: out,
    };
    (carried, rows)
}

/// The external tables of the batch's fields (all but `ezuser`, read with the fields).
async fn extras(src: &Source, fields: &[Row]) -> Result<Extras> {
    let mut ex = Extras::default();
    let of = |t: &str| -> Vec<i64> {
        let mut v: Vec<i64> = (fields.iter())
            .filter(|f| f.str("data_type_string") == t)
            .map(|f| f.int("id"))
            .collect();
        v.sort();
        v.dedup();
        v
    };
    let list = |v: &[i64]| v.iter().map(i64::to_string).collect::<Vec<_>>().join(",");
    let url_ids: HashSet<i64> = (fields.iter())
        .filter(|f| f.str("data_type_string") == "ezurl")
        .filter_map(|f| f.opt_int("data_int"))
        .collect();
    if !url_ids.is_empty() {
        let l = list(&url_ids.into_iter().collect::<Vec<_>>());
        for u in src
            .select("ezurl", &["id", "url"], &format!("id IN ({l})"), "")
            .await?
        {
            ex.urls.insert(u.int("id"), u.text("url"));
        }
    }
    let kw = of("ezkeyword");
    if !kw.is_empty() && src.has("ezkeyword") {
        let sql = format!(
            "SELECT l.objectattribute_id, l.version, k.keyword FROM {} l JOIN {} k ON k.id = l.keyword_id \
             WHERE l.objectattribute_id IN ({}) ORDER BY l.id",
            src.name("ezkeyword_attribute_link"),
            src.name("ezkeyword"),
            list(&kw)
        );
        for k in src
            .fetch(&sql, &["objectattribute_id", "version", "keyword"])
            .await?
        {
            (ex.keywords
                .entry((k.int("objectattribute_id"), k.int("version")))
                .or_default())
            .push(k.text("keyword"));
        }
    }
    let keyed = |rows: Vec<Row>, id: &str, version: &str| -> HashMap<(i64, i64), Row> {
        rows.into_iter()
            .map(|r| ((r.int(id), r.int(version)), r))
            .collect()
    };
    let maps = of("ezgmaplocation");
    if !maps.is_empty() {
        let rows = src
            .select(
                "ezgmaplocation",
                &[
                    "contentobject_attribute_id",
                    "contentobject_version",
                    "latitude",
                    "longitude",
                    "address",
                ],
                &format!("contentobject_attribute_id IN ({})", list(&maps)),
                "",
            )
            .await?;
        ex.maps = keyed(rows, "contentobject_attribute_id", "contentobject_version");
    }
    let bins = of("ezbinaryfile");
    if !bins.is_empty() {
        let rows = src
            .select(
                "ezbinaryfile",
                &[
                    "contentobject_attribute_id",
                    "version",
                    "filename",
                    "original_filename",
                    "mime_type",
                    "download_count",
                ],
                &format!("contentobject_attribute_id IN ({})", list(&bins)),
                "",
            )
            .await?;
        ex.binaries = keyed(rows, "contentobject_attribute_id", "version");
    }
    let media = of("ezmedia");
    if !media.is_empty() {
        let rows = src
            .select(
                "ezmedia",
                &[
                    "contentobject_attribute_id",
                    "version",
                    "filename",
                    "original_filename",
                    "mime_type",
                    "has_controller",
                    "is_autoplay",
                    "is_loop",
                    "width",
                    "height",
                ],
                &format!("contentobject_attribute_id IN ({})", list(&media)),
                "",
            )
            .await?;
        ex.media = keyed(rows, "contentobject_attribute_id", "version");
    }
    Ok(ex)
}

/// The fields of the batch (`rows`; `extras`, what the external tables hold for them). The
/// published items' current versions (`published`: content id → version) get their
/// full-text documents as the index's catch-up would make them: the words of their searchable
/// fields, in the fields' order. The rows to write and the documents.
async fn fields(
    cx: &mut Cx<'_>,
    rows: &[Row],
    extras: &Extras,
    carried: &HashSet<(i64, i64)>,
    published: &HashMap<i64, i64>,
) -> (Rows, BTreeMap<i64, String>) {
    cx.report.read("fields", rows.len());
    cx.progress.advance(rows.len());
    let mut documents: BTreeMap<i64, Document> = (published.keys())
        .map(|id| (*id, Document::default()))
        .collect();
    let mut out = Vec::with_capacity(rows.len());
    for r in rows {
        let (content, version) = (r.int("contentobject_id"), r.int("version"));
        if !carried.contains(&(content, version)) {
            let from = r.describe("ezcontentobject_attribute");
            cx.report.skip("fields", "its version is not carried", from);
            continue;
        }
        let def = cx.defs.get(&r.int("contentclassattribute_id")).cloned();
        let types = cx.types;
        let Some((def, ft)) = def.and_then(|d| {
            let ft = types.named(d.field_type.as_deref()?)?;
            Some((d, ft))
        }) else {
            let why = match cx.defs.get(&r.int("contentclassattribute_id")) {
                Some(d) => format!("field type {} is not one cairn has", d.legacy),
                None => "its Field definition does not exist".to_string(),
            };
            let from = r.describe("ezcontentobject_attribute");
            cx.report.skip("fields", why, from);
            continue;
        };
        let bare = def.field_type.as_deref().unwrap_or_default();
        let value = match convert(cx, bare, r, extras).await {
            Ok(Err(stored)) => stored,
            Ok(Ok(hash)) => {
                let vcx = crate::field_types::ValueContext {
                    files: cx.files,
                    variations: &[],
                    field: None,
                    asset: None,
                    uploads: None,
                };
                match ft.from_hash(&hash, &vcx) {
                    Ok(v) => v,
                    Err(e) => {
                        let why = format!(
                            "a {} value cairn does not read ({}): stored empty",
                            def.legacy, e.message
                        );
                        let from = r.describe("ezcontentobject_attribute");
                        cx.report.skip("field values", why, from);
                        ft.empty_value()
                    }
                }
            }
            Err(why) => {
                let from = r.describe("ezcontentobject_attribute");
                cx.report
                    .skip("field values", format!("{why}: stored empty"), from);
                ft.empty_value()
            }
        };
        let (sort_string, sort_int) = match ft.sort_key(&value) {
            crate::field_types::SortKey::Text(s) => (s, 0),
            crate::field_types::SortKey::Int(i) => (String::new(), i),
            crate::field_types::SortKey::None => (String::new(), 0),
        };
        let language = r.text("language_code");
        if let Some((settings, validators)) = &def.search
            && published.get(&content) == Some(&version)
            && let Some(doc) = documents.get_mut(&content)
        {
            let def = crate::field_types::Definition {
                settings,
                validators,
            };
            doc.push(&ft.search_text(&value, &def, &language));
        }
        out.push(Insert {
            from: r.describe("ezcontentobject_attribute"),
            values: vec![
                r.int("id").into(),
                version.into(),
                content.into(),
                r.int("contentclassattribute_id").into(),
                language.into(),
                crate::stored::hash_json(&value).into(),
                sort_string.into(),
                sort_int.into(),
            ],
        });
    }
    cx.report.written("fields", out.len());
    let rows = Rows {
        table: "content_fields",
        columns: &[
            "id",
            "version_no",
            "content_id",
            "field_definition_id",
            "language_code",
            "value",
            "sort_key_string",
            "sort_key_int",
        ],
        rows: out,
    };
    let documents = documents.into_iter().map(|(id, d)| (id, d.text)).collect();
    (rows, documents)
}

fn relations(
    cx: &mut Cx<'_>,
    rows: &[Row],
    carried: &HashSet<(i64, i64)>,
    extra: &mut Vec<Insert>,
    max_relation: &mut i64,
) -> Rows {
    cx.report.read("relations", rows.len());
    let mut out = Vec::new();
    for r in rows {
        let from = r.describe("ezcontentobject_link");
        let (source, version) = (
            r.int("from_contentobject_id"),
            r.int("from_contentobject_version"),
        );
        *max_relation = (*max_relation).max(r.int("id"));
        if !carried.contains(&(source, version)) {
            cx.report
                .skip("relations", "its source version is not carried", from);
            continue;
        }
        let kinds: Vec<i64> = [1, 2, 4, 8, 16]
            .into_iter()
            .filter(|k| r.int("relation_type") & k != 0)
            .collect();
        if kinds.is_empty() {
            cx.report.skip("relations", "no relation type", from);
            continue;
        }
        for (i, kind) in kinds.into_iter().enumerate() {
            let field = match r.int("contentclassattribute_id") {
                0 => None,
                f if kind == 8 || kind == 16 => Some(f),
                _ => None,
            };
            let values: Vec<sea_orm::Value> = vec![
                source.into(),
                version.into(),
                r.int("to_contentobject_id").into(),
                kind.into(),
                field.into(),
            ];
            if i == 0 {
                let mut values = values;
                values.insert(0, r.int("id").into());
                out.push(Insert {
                    from: from.clone(),
                    values,
                });
            } else {
                extra.push(Insert {
                    from: from.clone(),
                    values,
                });
            }
        }
    }
    cx.report.written("relations", out.len());
    Rows {
        table: "content_relations",
        columns: RELATION_COLUMNS,
        rows: out,
    }
}
