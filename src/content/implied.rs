//! The relations a version's Fields imply (LINK, EMBED, ATTRIBUTE, ASSET), stored in the order
//! the reference's `RelationProcessor` inserts them, which is the order it lists them in: each
//! kind in the order it first appears among the Fields; within LINK and EMBED each destination
//! once, as met; within ATTRIBUTE and ASSET each Field definition as met, its destinations
//! together. A version written again keeps the rows still implied (and their places), deletes
//! the others and appends the new ones, as the reference does.

use super::fields::FieldSet;
use crate::content_rows::TypeInfo;
use crate::error::Result;
use crate::field_types::RelationKind;
use crate::shared::Shared;
use cairn_store::Connection;
use cairn_store::entity::{content_relation, location};
use sea_orm::{ActiveValue::Set, ColumnTrait, EntityTrait, QueryFilter, QuerySelect};
use std::collections::HashMap;

/// A relation row to be: (relation type, Field definition, destination).
type Row = (i64, Option<i64>, i64);

/// The implied relations, in the reference's order.
#[derive(Debug, Default)]
pub(super) struct Implied(Vec<Row>);

impl Implied {
    /// The relations the Fields of `set` imply. Of each Field, each kind in turn: the items of
    /// the Locations it names (found in one statement for all; a Location that is not there
    /// makes none, as in the reference), then the items it names.
    pub(super) async fn of(
        shared: &Shared,
        db: &impl Connection,
        ty: &TypeInfo,
        set: &FieldSet,
    ) -> Result<Implied> {
        let mut named = Vec::new();
        for e in &set.entries {
            let Some(def) = ty.field(e.definition_id) else {
                continue;
            };
            let Some(ft) = shared.field_type(&def.field_type) else {
                continue;
            };
            named.push((
                def.id,
                ft.location_relations(&e.value),
                ft.relations(&e.value),
            ));
        }
        let location_ids: Vec<i64> = (named.iter())
            .flat_map(|(_, at, _)| at.iter().map(|(_, id)| *id))
            .collect();
        let items: HashMap<i64, i64> = if location_ids.is_empty() {
            HashMap::new()
        } else {
            (location::Entity::find())
                .select_only()
                .column(location::Column::Id)
                .column(location::Column::ContentId)
                .filter(location::Column::Id.is_in(location_ids))
                .into_tuple::<(i64, i64)>()
                .all(db)
                .await?
                .into_iter()
                .collect()
        };
        let mut implied = Implied::default();
        for (def_id, at, to) in named {
            for kind in [
                RelationKind::Link,
                RelationKind::Embed,
                RelationKind::Attribute,
                RelationKind::Asset,
            ] {
                let field =
                    matches!(kind, RelationKind::Attribute | RelationKind::Asset).then_some(def_id);
                let located = (at.iter())
                    .filter(|(k, _)| *k == kind)
                    .filter_map(|(_, l)| items.get(l).copied());
                let named = to.iter().filter(|(k, _)| *k == kind).map(|(_, c)| *c);
                for dest in located.chain(named).collect::<Vec<_>>() {
                    implied.add(kind as i64, field, dest);
                }
            }
        }
        Ok(implied)
    }

    /// Adds the relation of type `kind` (of the Field definition `field` for ATTRIBUTE and
    /// ASSET) to `dest`, unless it is there.
    fn add(&mut self, kind: i64, field: Option<i64>, dest: i64) {
        let row = (kind, field, dest);
        if self.0.contains(&row) {
            return;
        }
        let place = (self
            .0
            .iter()
            .rposition(|(k, f, _)| *k == kind && *f == field))
        .or_else(|| self.0.iter().rposition(|(k, _, _)| *k == kind));
        match place {
            Some(p) => self.0.insert(p + 1, row),
            None => self.0.push(row),
        }
    }

    /// Stores the relations of version `no` of `content_id`: all of them into a `fresh`
    /// version; else those not stored yet, after deleting the stored ones no longer implied
    /// (COMMON relations stay).
    pub(super) async fn save(
        self,
        tx: &impl Connection,
        content_id: i64,
        no: i64,
        fresh: bool,
    ) -> Result<()> {
        let mut new = self.0;
        if !fresh {
            let stored = (content_relation::Entity::find())
                .filter(content_relation::Column::SourceContentId.eq(content_id))
                .filter(content_relation::Column::SourceVersionNo.eq(no))
                .filter(content_relation::Column::RelationType.ne(content_relation::COMMON))
                .all(tx)
                .await?;
            let key = |r: &content_relation::Model| {
                (
                    r.relation_type,
                    r.source_field_definition_id,
                    r.destination_content_id,
                )
            };
            let gone: Vec<i64> = (stored.iter())
                .filter(|r| !new.contains(&key(r)))
                .map(|r| r.id)
                .collect();
            if !gone.is_empty() {
                content_relation::Entity::delete_many()
                    .filter(content_relation::Column::Id.is_in(gone))
                    .exec(tx)
                    .await?;
            }
            new.retain(|row| !stored.iter().any(|r| key(r) == *row));
        }
        if new.is_empty() {
            return Ok(());
        }
        content_relation::Entity::insert_many(new.into_iter().map(|(kind, field, dest)| {
            content_relation::ActiveModel {
                source_content_id: Set(content_id),
                source_version_no: Set(no),
                destination_content_id: Set(dest),
                relation_type: Set(kind),
                source_field_definition_id: Set(field),
                ..Default::default()
            }
        }))
        .exec_without_returning(tx)
        .await?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kinds_as_first_met_and_a_field_definitions_destinations_together() {
        let mut i = Implied::default();
        for (kind, field, dest) in [
            (4, None, 57),
            (2, None, 12),
            (8, Some(3), 9),
            (4, None, 11),
            (8, Some(5), 1),
            (8, Some(3), 2),
            (4, None, 57),
        ] {
            i.add(kind, field, dest);
        }
        assert_eq!(
            i.0,
            [
                (4, None, 57),
                (4, None, 11),
                (2, None, 12),
                (8, Some(3), 9),
                (8, Some(3), 2),
                (8, Some(5), 1),
            ]
        );
    }
}
