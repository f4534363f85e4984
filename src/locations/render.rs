//! Locations as the API shows them: one or many with their content items' infos, the root
//! Location, lists.

use super::*;
use cairn_store::Connection;
use cairn_store::read::Kept;

impl Shared {
    /// A Location with its content item's ContentInfo embedded.
    pub(crate) async fn location_body(
        &self,
        db: &impl Connection,
        l: &location::Model,
    ) -> Result<Location> {
        let mut bodies = self.location_bodies(db, std::slice::from_ref(l)).await?;
        Ok(bodies.remove(0))
    }

    /// [`Self::location_body`] of each of `ls`, in order: a fixed number of statements
    /// (child counts, content items, main Locations elsewhere) whatever their number.
    pub(crate) async fn location_bodies(
        &self,
        db: &impl Connection,
        ls: &[location::Model],
    ) -> Result<Vec<Location>> {
        Ok(self.located(db, ls).await?.0)
    }

    /// [`Self::location_bodies`] with the content items they hold, by id.
    pub(crate) async fn located(
        &self,
        db: &impl Connection,
        ls: &[location::Model],
    ) -> Result<(Vec<Location>, HashMap<i64, content::Model>)> {
        if ls.is_empty() {
            return Ok((Vec::new(), HashMap::new()));
        }
        let ids: Vec<i64> = ls.iter().map(|l| l.id).collect();
        let counts: Vec<ChildCount> = match &ids[..] {
            // One Location (the commonest read): the statement kept built.
            [id] => {
                static KEPT: Kept = Kept::new();
                let build = || child_counts(location::Column::ParentId.eq(0));
                KEPT.all(db, build, [(*id).into()]).await?
            }
            _ => {
                child_counts(location::Column::ParentId.is_in(ids.clone()))
                    .into_model()
                    .all(db)
                    .await?
            }
        };
        let counts: HashMap<i64, i64> = counts.into_iter().map(|r| (r.parent_id, r.n)).collect();
        let content_ids: Vec<i64> = ls
            .iter()
            .map(|l| l.content_id)
            .filter(|&c| c != 0)
            .collect();
        let contents: HashMap<i64, content::Model> = if content_ids.is_empty() {
            HashMap::new()
        } else {
            (cairn_store::read::by_ids::<content::Entity>(db, &content_ids).await?)
                .into_iter()
                .map(|c| (c.id, c))
                .collect()
        };
        // Main Locations other than the ones at hand.
        let mut paths: HashMap<i64, String> = ls
            .iter()
            .map(|l| (l.id, href_path(&l.path_string)))
            .collect();
        let elsewhere: Vec<i64> = contents
            .values()
            .filter_map(|c| c.main_location_id)
            .filter(|id| !paths.contains_key(id))
            .collect();
        if !elsewhere.is_empty() {
            for m in cairn_store::read::by_ids::<location::Entity>(db, &elsewhere).await? {
                paths.insert(m.id, href_path(&m.path_string));
            }
        }
        ls.iter()
            .map(|l| {
                let c = if l.content_id == 0 {
                    None
                } else {
                    Some(
                        contents
                            .get(&l.content_id)
                            .ok_or_else(|| Error::not_found("Content", l.content_id))?,
                    )
                };
                let info = c.map(|c| {
                    let main = c.main_location_id.and_then(|m| paths.get(&m));
                    self.content_info(c, main.map(String::as_str))
                });
                let child_count = counts.get(&l.id).copied().unwrap_or(0);
                Ok(self.location(l, child_count, c, info))
            })
            .collect::<Result<Vec<_>>>()
            .map(|bodies| (bodies, contents))
    }

    pub(super) fn location(
        &self,
        l: &location::Model,
        child_count: i64,
        c: Option<&content::Model>,
        info: Option<ContentInfo>,
    ) -> Location {
        let path = href_path(&l.path_string);
        let content_hidden = c.is_some_and(|c| c.is_hidden);
        let info = info.unwrap_or_else(|| self.root_content_info());
        Location {
            href: location_href(l),
            id: l.id,
            priority: l.priority,
            hidden: l.is_hidden || content_hidden,
            invisible: l.is_invisible,
            explicitly_hidden: l.is_hidden,
            parent_location: tree::parent_path(&l.path_string),
            path_string: l.path_string.clone(),
            depth: l.depth,
            child_count,
            remote_id: l.remote_id.clone(),
            children: path.clone(),
            content: l.content_id,
            sort_field: l.sort_field.clone(),
            sort_order: l.sort_order.clone(),
            url_aliases: path,
            content_info: LocationContentInfo {
                href: info.href.clone(),
                content: LocationContent::ContentInfo(info),
            },
        }
    }

    /// The virtual root Location 1 holds no content item: an empty ContentInfo stands in.
    pub(super) fn root_content_info(&self) -> ContentInfo {
        let c = content::Model {
            id: 0,
            content_type_id: 1,
            section_id: 1,
            owner_id: 14,
            remote_id: String::new(),
            main_language_code: "eng-GB".into(),
            always_available: true,
            current_version: 0,
            status: content::PUBLISHED,
            published: 0,
            modified: 0,
            is_hidden: false,
            main_location_id: Some(tree::ROOT),
            name: String::new(),
        };
        self.content_info(&c, Some("1"))
    }
}

impl LocationsService {
    pub(super) fn location_list(
        &self,
        href: String,
        locations: &[location::Model],
    ) -> LocationList {
        LocationList {
            href,
            location: locations
                .iter()
                .map(|l| href_path(&l.path_string))
                .collect(),
        }
    }
}

/// The children of the Locations `parents` selects, counted per parent (the root, its own
/// parent, left out).
fn child_counts(
    parents: impl sea_orm::sea_query::IntoCondition,
) -> sea_orm::Select<location::Entity> {
    (location::Entity::find().select_only())
        .column(location::Column::ParentId)
        .column_as(location::Column::Id.count(), "n")
        .filter(parents)
        .filter(location::Column::Id.ne(tree::ROOT))
        .group_by(location::Column::ParentId)
}

cairn_store::from_row! {
    /// A row of [`child_counts`].
    #[derive(sea_orm::FromQueryResult)]
    struct ChildCount {
        parent_id: i64,
        n: i64,
    }
}
