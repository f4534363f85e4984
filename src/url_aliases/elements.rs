//! The tree of URL alias path elements (`url_aliases`, the reference's `ezurlalias_ml`):
//! reading it, publishing a Location's elements, and looking up a path (the hooks that call
//! these when the tree of Locations changes are in `hooks`).
//!
//! A row is one text of one element under a parent element, keyed by `(parent, md5 of the
//! lowercased text)`. The rows of a Location's element (its texts per language) share one
//! `id`, and the elements of its children hang below that id. History rows have their own
//! id and `link` to the current element: a lookup continues below `link`, so after a rename
//! or a move the old paths of the whole subtree keep resolving, and moving a subtree only
//! touches the rows of its root.
//!
//! Elements of Locations below the site root (Location 2, whose element is the empty text at
//! the root) are first-level elements (parent 0), as in the reference.

use super::slug;
use crate::error::Result;
use crate::language_list::Languages;
use crate::stored;
use cairn_runtime::LangMap;
use cairn_store::Connection;
use cairn_store::Tx;
use cairn_store::entity::{content, content_version, location, url_alias};
use cairn_store::ids::next_id;
use cairn_store::read::Kept;
use md5::{Digest, Md5};
use sea_orm::ConnectionTrait;
use sea_orm::sea_query::OnConflict;
use sea_orm::{
    ActiveValue::Set, ColumnTrait, Condition, EntityTrait, IntoActiveModel, QueryFilter,
    QueryOrder, QuerySelect,
};

/// The virtual root Location: it has no alias.
const TREE_ROOT: i64 = 1;
/// The site root Location: its alias is the empty text at the root (`/`).
const SITE_ROOT: i64 = 2;
/// The deepest path a lookup follows (the reference's limit).
const MAX_DEPTH: usize = 60;

/// md5 of the lowercased text, hex: how texts are matched.
pub fn hash(text: &str) -> String {
    Md5::digest(text.to_lowercase().as_bytes())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// The action of a Location's elements.
pub fn node_action(location_id: i64) -> String {
    format!("eznode:{location_id}")
}

/// A new element id.
pub async fn new_id(tx: &Tx) -> Result<i64> {
    Ok(next_id(tx, "url_aliases").await?)
}

/// The alias tree's lock on PostgreSQL (SQLite's writers are serialised already).
pub(crate) const TREE_LOCK: &str = crate::tree::ALIAS_TREE_LOCK;

/// Holds off every other writer of the alias tree until the transaction ends: for the writes
/// that check and rewrite several elements at once (custom aliases and their deletion, a
/// swap). Take it before any publication in the same transaction.
pub async fn lock_tree(tx: &Tx) -> Result<()> {
    Ok(tx.lock(TREE_LOCK).await?)
}

/// A publication's hold on the alias tree: shared, so that publications run side by side
/// while [`lock_tree`]'s writers wait for them (a writer that placed the Location holds it
/// already: `tree::share`). Each text a publication writes it first claims ([`row_claimed`]).
async fn share_tree(tx: &Tx) -> Result<()> {
    Ok(tx.lock_shared(TREE_LOCK).await?)
}

/// The row of the text `text_md5` under `parent`, and whether this transaction holds the
/// text. A text free for a publication of the Location whose action is `action` (no row, a
/// placeholder, history, or that Location's own) is claimed for the transaction: not held
/// when a concurrent publication holds it. That one is writing the text for another
/// Location (publications of one content item wait for each other on its row before they
/// reach its aliases), so the text counts as taken. (A move racing a publication of the
/// moved Location's content may leave it the next text, `Folder2`, with its first as
/// history: consistent, only named otherwise.) A claim never waits, so publications that
/// claim texts in different orders cannot deadlock. Without `claim` (and on SQLite, whose
/// writers are serialised) the text is held. On PostgreSQL one statement.
async fn row_claimed(
    tx: &Tx,
    parent: i64,
    text_md5: &str,
    action: &str,
    claim: bool,
) -> Result<(Option<url_alias::Model>, bool)> {
    if !claim || tx.get_database_backend() != sea_orm::DbBackend::Postgres {
        return Ok((row(tx, parent, text_md5).await?, true));
    }
    static SQL: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    let sql = SQL.get_or_init(|| {
        format!(
            "SELECT {}, CASE WHEN a.parent IS NULL OR a.action = 'nop:' OR a.action = $3 \
             OR NOT a.is_original THEN pg_try_advisory_xact_lock(hashtext($4)) END AS claimed \
             FROM (SELECT 1) one LEFT JOIN url_aliases a ON a.parent = $1 AND a.text_md5 = $2",
            cairn_store::sql::columns_as::<url_alias::Entity>("a", "a_")
        )
    });
    let key = format!("{TREE_LOCK}/{parent}/{text_md5}");
    let values = [parent.into(), text_md5.into(), action.into(), key.into()];
    let s = sea_orm::Statement::from_sql_and_values(sea_orm::DbBackend::Postgres, sql, values);
    let Some(r) = tx.query_one_raw(s).await? else {
        return Ok((None, false));
    };
    let found: Option<i64> = r.try_get("", "a_parent")?;
    let existing = match found {
        Some(_) => {
            Some(<url_alias::Model as sea_orm::FromQueryResult>::from_query_result(&r, "a_")?)
        }
        None => None,
    };
    let claimed: Option<bool> = r.try_get("", "claimed")?;
    Ok((existing, claimed == Some(true)))
}

pub async fn row(
    db: &impl Connection,
    parent: i64,
    text_md5: &str,
) -> Result<Option<url_alias::Model>> {
    static KEPT: Kept = Kept::new();
    let build = || {
        (url_alias::Entity::find())
            .filter(url_alias::Column::Parent.eq(0))
            .filter(url_alias::Column::TextMd5.eq(""))
            .limit(1)
    };
    Ok(KEPT
        .one(db, build, [parent.into(), text_md5.into()])
        .await?)
}

/// The current system rows of a Location (every language and level).
pub(super) async fn system_rows(
    db: &impl Connection,
    location_id: i64,
) -> Result<Vec<url_alias::Model>> {
    static KEPT: Kept = Kept::new();
    let build = || {
        (url_alias::Entity::find())
            .filter(url_alias::Column::Action.eq(""))
            .filter(url_alias::Column::IsOriginal.eq(true))
            .filter(url_alias::Column::IsAlias.eq(false))
            .order_by_asc(url_alias::Column::Parent)
            .order_by_asc(url_alias::Column::TextMd5)
    };
    let values = [node_action(location_id).into(), true.into(), false.into()];
    Ok(KEPT.all(db, build, values).await?)
}

/// The current element of a Location among its system rows `rows`: the one at level
/// `parent` if there is one, else at any level (a Location whose parent's element changed,
/// or that moved).
fn current_element(rows: Vec<url_alias::Model>, parent: i64) -> Option<url_alias::Model> {
    let here = rows.iter().position(|r| r.parent == parent);
    match here {
        Some(i) => rows.into_iter().nth(i),
        None => rows.into_iter().next(),
    }
}

/// The element id under which the elements of `location_id`'s children hang: 0 for the tree
/// root, the site root and Locations without an element.
pub async fn parent_element(db: &impl Connection, location_id: i64) -> Result<i64> {
    if location_id == TREE_ROOT {
        return Ok(0);
    }
    let rows = system_rows(db, location_id).await?;
    Ok(match rows.first() {
        None => 0,
        Some(r) if r.parent == 0 && r.text.is_empty() => 0,
        Some(r) => r.id,
    })
}

/// Language code → id (bit flag), with each of `codes` and each bit of `mask` among them
/// when the database has them.
pub async fn languages(
    known: &Languages,
    db: &impl Connection,
    codes: &[&str],
    mask: i64,
) -> Result<Vec<(String, i64)>> {
    let all = known.covering(db, codes, mask).await?;
    Ok((all.iter())
        .map(|l| (l.language_code.clone(), l.id))
        .collect())
}

/// The codes of the languages in `mask`, comma-separated, by language id.
pub fn language_codes(languages: &[(String, i64)], mask: i64) -> String {
    languages
        .iter()
        .filter(|(_, id)| mask & id != 0)
        .map(|(code, _)| code.as_str())
        .collect::<Vec<_>>()
        .join(",")
}

/// Turns a row into history: not original, linked to `link`, with an id of its own.
async fn historize(tx: &Tx, row: &url_alias::Model, link: i64) -> Result<()> {
    let id = new_id(tx).await?;
    let mut a = row.clone().into_active_model();
    a.is_original = Set(false);
    a.link = Set(link);
    a.id = Set(id);
    cairn_store::write::update(tx, a).await?;
    Ok(())
}

/// After a Location's element got `text_md5` under `parent` in language `bit`: its other
/// system rows of that language lose the language, or become history when it was their only
/// one.
async fn cleanup_after_publish(
    tx: &Tx,
    location_id: i64,
    bit: i64,
    element: i64,
    parent: i64,
    text_md5: &str,
) -> Result<()> {
    for r in system_rows(tx, location_id).await? {
        if r.lang_mask & bit == 0 || (r.parent == parent && r.text_md5 == text_md5) {
            continue;
        }
        if r.lang_mask & !bit != 0 {
            let mask = r.lang_mask & !bit;
            let mut a = r.into_active_model();
            a.lang_mask = Set(mask);
            cairn_store::write::update(tx, a).await?;
        } else {
            historize(tx, &r, element).await?;
        }
    }
    Ok(())
}

/// Where a publication puts a Location's elements: under the element `parent`, with
/// `forced` as its element id when it has none.
struct Placement {
    location_id: i64,
    parent: i64,
    always_available: bool,
    forced: Option<i64>,
}

/// Publishes the element of one Location in one language under `parent` (the reference's
/// `publishUrlAliasForLocation`): the first free text of `slug`, `slug2`, `slug3`...; a
/// placeholder, history row or row of the same Location with that text is taken over. The
/// element keeps the Location's current element id (so its children follow), else takes
/// `forced` or a new id. `known`: the Location's system rows, when they were just read.
async fn publish_one(
    tx: &Tx,
    at: &Placement,
    slug: &str,
    bit: i64,
    mut known: Option<Vec<url_alias::Model>>,
) -> Result<()> {
    let &Placement {
        location_id,
        parent,
        always_available,
        forced,
    } = at;
    let action = node_action(location_id);
    let mut counter = slug::first_counter(slug, parent == 0);
    loop {
        let text = if location_id == SITE_ROOT {
            String::new()
        } else {
            slug::with_counter(slug, counter)
        };
        let md5 = hash(&text);
        // The site root's text is the empty one whatever the counter: it is not claimed
        // (publications of one content item wait for each other on its row anyway).
        let (existing, claimed) =
            row_claimed(tx, parent, &md5, &action, location_id != SITE_ROOT).await?;
        let reusable = match &existing {
            None => true,
            Some(r) => r.action == "nop:" || r.action == action || !r.is_original,
        };
        if !reusable || !claimed {
            counter += 1;
            continue;
        }
        let rows = match known.take() {
            Some(rows) => rows,
            None => system_rows(tx, location_id).await?,
        };
        let current = current_element(rows, parent);
        let mut mask = bit;
        // A new element's id: on PostgreSQL taken from the sequence by the insert.
        let postgres = tx.get_database_backend() == sea_orm::DbBackend::Postgres;
        let element = match (&current, &existing, forced) {
            (Some(c), Some(r), _) if c.id == r.id && c.parent == r.parent => {
                mask |= r.lang_mask;
                Some(c.id)
            }
            (Some(c), _, _) => Some(c.id),
            (None, _, Some(f)) => Some(f),
            (None, Some(r), None) => Some(r.id),
            (None, None, None) if postgres => None,
            (None, None, None) => Some(new_id(tx).await?),
        };
        let model = url_alias::ActiveModel {
            parent: Set(parent),
            text_md5: Set(md5.clone()),
            id: Set(element.unwrap_or_default()),
            link: Set(element.unwrap_or_default()),
            text: Set(text),
            action: Set(action.clone()),
            lang_mask: Set(mask),
            always_available: Set(always_available),
            is_original: Set(true),
            is_alias: Set(false),
            alias_redirects: Set(true),
        };
        // Written only if the text is still free to take: another publication may have
        // committed it between the read and the claim. Else read it again.
        let written = if existing.is_some() {
            (url_alias::Entity::update_many().set(model))
                .filter(url_alias::Column::Parent.eq(parent))
                .filter(url_alias::Column::TextMd5.eq(md5.as_str()))
                .filter(
                    Condition::any()
                        .add(url_alias::Column::Action.eq("nop:"))
                        .add(url_alias::Column::Action.eq(action.as_str()))
                        .add(url_alias::Column::IsOriginal.eq(false)),
                )
                .exec(tx)
                .await?
                .rows_affected
        } else if element.is_none() {
            insert_new_element(tx, model).await?
        } else {
            (url_alias::Entity::insert(model))
                .on_conflict(
                    OnConflict::columns([url_alias::Column::Parent, url_alias::Column::TextMd5])
                        .do_nothing()
                        .to_owned(),
                )
                .exec_without_returning(tx)
                .await?
        };
        if written == 0 {
            continue;
        }
        if let (Some(_), Some(element)) = (&current, element) {
            cleanup_after_publish(tx, location_id, bit, element, parent, &md5).await?;
        }
        return Ok(());
    }
}

/// Inserts `model` as a new element (PostgreSQL), its id and link the sequence's next, unless
/// its text is taken: the rows written.
async fn insert_new_element(tx: &Tx, model: url_alias::ActiveModel) -> Result<u64> {
    let m = &model;
    let values = [
        m.parent.clone().into_value(),
        m.text_md5.clone().into_value(),
        m.text.clone().into_value(),
        m.action.clone().into_value(),
        m.lang_mask.clone().into_value(),
        m.always_available.clone().into_value(),
        m.is_original.clone().into_value(),
        m.is_alias.clone().into_value(),
        m.alias_redirects.clone().into_value(),
    ];
    static SQL: std::sync::LazyLock<String> = std::sync::LazyLock::new(|| {
        format!(
            "INSERT INTO url_aliases (parent, text_md5, id, link, text, action, lang_mask, \
             always_available, is_original, is_alias, alias_redirects) \
             SELECT ?, ?, n.id, n.id, ?, ?, ?, ?, ?, ?, ? FROM (SELECT {} AS id) n \
             ON CONFLICT (parent, text_md5) DO NOTHING",
            cairn_store::ids::next_id_in_statement("url_aliases")
        )
    });
    Ok(cairn_store::sql::exec(tx, &SQL, values.into_iter().flatten()).await?)
}

/// Languages the Location no longer has: their system rows lose them (or become history).
async fn archive_languages(tx: &Tx, location_id: i64, keep: i64) -> Result<()> {
    for r in system_rows(tx, location_id).await? {
        if r.lang_mask & !keep == 0 {
            continue;
        }
        if r.lang_mask & keep != 0 {
            let mask = r.lang_mask & keep;
            let mut a = r.into_active_model();
            a.lang_mask = Set(mask);
            cairn_store::write::update(tx, a).await?;
        } else {
            let link = r.id;
            historize(tx, &r, link).await?;
        }
    }
    Ok(())
}

/// How [`publish_location`] treats the Location.
#[derive(Default, Clone, Copy)]
pub(super) struct Publish {
    /// The element id it takes when it has none.
    pub forced: Option<i64>,
    /// Created in this transaction: it has no rows yet, so they are not read.
    pub placed: bool,
}

/// Publishes a Location's system aliases in every language of `names` (see [`Publish`]).
pub(super) async fn publish_location(
    tx: &Tx,
    known: &Languages,
    l: &location::Model,
    names: &LangMap,
    always_available: bool,
    how: Publish,
) -> Result<()> {
    if l.id == TREE_ROOT {
        return Ok(());
    }
    let Publish { forced, placed } = how;
    share_tree(tx).await?;
    let at = Placement {
        location_id: l.id,
        parent: parent_element(tx, l.parent_id).await?,
        always_available,
        forced,
    };
    let codes: Vec<&str> = names.0.iter().map(|(code, _)| code.as_str()).collect();
    let langs = languages(known, tx, &codes, 0).await?;
    // Read once for the first language (a Location placed in this transaction has none); a
    // Location that had none has only the rows published here afterwards, so none to archive.
    let mut known = Some(match placed {
        true => Vec::new(),
        false => system_rows(tx, l.id).await?,
    });
    let had = known.as_ref().is_some_and(|rows| !rows.is_empty());
    let mut keep = 0;
    for (code, name) in &names.0 {
        let Some(&(_, bit)) = langs.iter().find(|(c, _)| c == code) else {
            continue;
        };
        keep |= bit;
        let slug = slug::convert(name, "_1");
        publish_one(tx, &at, &slug, bit, known.take()).await?;
    }
    if keep != 0 && had {
        archive_languages(tx, l.id, keep).await?;
    }
    Ok(())
}

/// The names (per language) of a content item's published version, and whether it is
/// always available; `None` for content that is not published.
pub async fn content_names(
    db: &impl Connection,
    content_id: i64,
) -> Result<Option<(LangMap, bool)>> {
    let Some(c) = cairn_store::read::by_id::<content::Entity>(db, content_id).await? else {
        return Ok(None);
    };
    if c.status != content::PUBLISHED {
        return Ok(None);
    }
    let v = content_version::Entity::find()
        .filter(content_version::Column::ContentId.eq(c.id))
        .filter(content_version::Column::VersionNo.eq(c.current_version))
        .one(db)
        .await?;
    let mut names = v.map(|v| stored::lang_map(&v.names)).unwrap_or_default();
    if names.is_empty() {
        names.set(&c.main_language_code, &c.name);
    }
    Ok(Some((names, c.always_available)))
}

/// The Location a URL path names (`/Users/Editors`; case-insensitive; history, custom
/// aliases and placeholders on the way included), or `None`.
pub(crate) async fn location_of_alias(db: &impl Connection, path: &str) -> Result<Option<i64>> {
    let trimmed = path.trim_matches(|c| c == '/' || c == ' ');
    let segments: Vec<&str> = if trimmed.is_empty() {
        vec![""]
    } else {
        trimmed.split('/').collect()
    };
    if segments.len() > MAX_DEPTH {
        return Ok(None);
    }
    let mut parent = 0;
    let mut last = None;
    for s in segments {
        match row(db, parent, &hash(s)).await? {
            None => return Ok(None),
            Some(r) => {
                parent = r.link;
                last = Some(r);
            }
        }
    }
    Ok(last.as_ref().and_then(location_of))
}

/// The full path of each of `rows` from the root (`/Users/Editors`; the site root is `/`): each
/// ancestor element by the text in a language of the row, else any current text. In their
/// order: one statement per level of the deepest, whatever their number.
pub(super) async fn full_paths(
    db: &impl Connection,
    rows: &[url_alias::Model],
) -> Result<Vec<String>> {
    // Each row's texts from the leaf up, and the element its next text is of (0: done).
    let mut walks: Vec<(Vec<String>, i64)> = rows
        .iter()
        .map(|r| (vec![r.text.clone()], r.parent))
        .collect();
    loop {
        let parents: std::collections::BTreeSet<i64> = (walks.iter())
            .filter(|(texts, parent)| *parent != 0 && texts.len() <= MAX_DEPTH)
            .map(|(_, parent)| *parent)
            .collect();
        if parents.is_empty() {
            break;
        }
        let mut elements: std::collections::HashMap<i64, Vec<url_alias::Model>> =
            Default::default();
        let parents: Vec<i64> = parents.into_iter().collect();
        for chunk in parents.chunks(500) {
            for c in url_alias::Entity::find()
                .filter(url_alias::Column::Id.is_in(chunk.iter().copied()))
                .order_by_asc(url_alias::Column::Parent)
                .order_by_asc(url_alias::Column::TextMd5)
                .all(db)
                .await?
            {
                elements.entry(c.id).or_default().push(c);
            }
        }
        for ((texts, parent), r) in walks.iter_mut().zip(rows) {
            if *parent == 0 || texts.len() > MAX_DEPTH {
                continue;
            }
            let candidates = elements.get(parent).map_or(&[][..], Vec::as_slice);
            let pick = candidates
                .iter()
                .find(|c| c.is_original && c.lang_mask & r.lang_mask != 0)
                .or_else(|| candidates.iter().find(|c| c.is_original))
                .or_else(|| candidates.first());
            match pick {
                Some(p) => {
                    texts.push(p.text.clone());
                    *parent = p.parent;
                }
                None => *parent = 0,
            }
        }
    }
    Ok(walks
        .into_iter()
        .map(|(mut texts, _)| {
            texts.reverse();
            format!("/{}", texts.join("/"))
        })
        .collect())
}

/// The Location a row is an alias of, if it is one.
pub(super) fn location_of(r: &url_alias::Model) -> Option<i64> {
    r.action.strip_prefix("eznode:")?.parse().ok()
}

/// The current aliases of the Locations `ids`, custom or generated as `custom` says, in the
/// order a Location's list names them: by parent element, then text.
pub(super) async fn location_rows(
    db: &impl Connection,
    ids: &[i64],
    custom: bool,
) -> Result<Vec<url_alias::Model>> {
    let mut rows = Vec::new();
    for chunk in ids.chunks(500) {
        rows.extend(
            url_alias::Entity::find()
                .filter(url_alias::Column::Action.is_in(chunk.iter().map(|id| node_action(*id))))
                .filter(url_alias::Column::IsOriginal.eq(true))
                .filter(url_alias::Column::IsAlias.eq(custom))
                .order_by_asc(url_alias::Column::Parent)
                .order_by_asc(url_alias::Column::Text)
                .all(db)
                .await?,
        );
    }
    Ok(rows)
}

/// The main URL path of each Location of `ids` that has one: the full path of its first
/// current, non-custom alias (by parent element, then text: the first the Location's list of
/// aliases names). A few statements whatever the number of Locations.
pub(crate) async fn main_paths(
    db: &impl Connection,
    ids: &[i64],
) -> Result<std::collections::HashMap<i64, String>> {
    let mut firsts: Vec<(i64, url_alias::Model)> = Vec::new();
    let mut seen = std::collections::HashSet::new();
    for r in location_rows(db, ids, false).await? {
        if let Some(id) = location_of(&r)
            && seen.insert(id)
        {
            firsts.push((id, r));
        }
    }
    let (ids, rows): (Vec<i64>, Vec<url_alias::Model>) = firsts.into_iter().unzip();
    let paths = full_paths(db, &rows).await?;
    Ok(ids.into_iter().zip(paths).collect())
}
