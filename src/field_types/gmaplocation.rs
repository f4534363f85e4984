//! `ezgmaplocation`: a map location, stored as `{latitude, longitude, address}`; `null` when
//! empty (no latitude and no longitude).

use super::*;

pub(crate) struct GmapLocationType;

fn coordinate(v: &HashValue, key: &str) -> Result<Option<f64>, ValueError> {
    match v {
        HashValue::Null => Ok(None),
        HashValue::String(s) if s.trim().is_empty() => Ok(None),
        v => v
            .as_f64()
            .filter(|f| f.is_finite())
            .map(Some)
            .ok_or_else(|| ValueError::new("location", format!("The {key} must be a number"))),
    }
}

fn address(value: &HashValue) -> String {
    opt_text(field(value, "address")).unwrap_or_default()
}

impl FieldType for GmapLocationType {
    fn schema(&self) -> Schema {
        Schema::named("gmaplocation")
    }

    /// `{"latitude": float, "longitude": float, "address": string}`; both coordinates are
    /// required unless both are absent (empty value).
    fn from_hash(&self, input: &HashValue, _: &ValueContext<'_>) -> Result<HashValue, ValueError> {
        match input {
            HashValue::Null => return Ok(HashValue::Null),
            HashValue::Map(_) => {}
            _ => {
                return Err(ValueError::new(
                    "location",
                    "Value must be a hash with latitude and longitude",
                ));
            }
        }
        let lat = coordinate(field(input, "latitude"), "latitude")?;
        let lng = coordinate(field(input, "longitude"), "longitude")?;
        let (lat, lng) = match (lat, lng) {
            (None, None) => return Ok(HashValue::Null),
            (Some(a), Some(b)) => (a, b),
            _ => {
                return Err(ValueError::new(
                    "location",
                    "Both latitude and longitude are required",
                ));
            }
        };
        Ok(map([
            ("latitude", HashValue::Float(Float(lat))),
            ("longitude", HashValue::Float(Float(lng))),
            ("address", HashValue::String(address(input))),
        ]))
    }

    fn is_empty(&self, value: &HashValue) -> bool {
        field(value, "latitude").is_null() && field(value, "longitude").is_null()
    }

    /// Not in the reference: the coordinates must be on Earth.
    fn validate(&self, value: &HashValue, _def: &Definition<'_>) -> Vec<ValueError> {
        [
            ("latitude", "Latitude", 90),
            ("longitude", "Longitude", 180),
        ]
        .into_iter()
        .filter(|(key, _, limit)| {
            let limit = f64::from(*limit);
            field(value, key)
                .as_f64()
                .is_some_and(|l| !(-limit..=limit).contains(&l))
        })
        .map(|(key, name, limit)| {
            ValueError::new(key, format!("{name} must be between -{limit} and {limit}."))
        })
        .collect()
    }

    fn sort_key(&self, value: &HashValue) -> SortKey {
        sort_text(&address(value))
    }

    fn name_text(&self, value: &HashValue) -> String {
        address(value)
    }
}
