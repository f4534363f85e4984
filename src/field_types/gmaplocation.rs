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
    fn name(&self) -> &'static str {
        "gmaplocation"
    }

    fn settings(&self, input: &HashValue) -> Result<HashValue, String> {
        no_settings(input)
    }

    fn validators(&self, input: &HashValue) -> Result<HashValue, String> {
        no_validators(input)
    }

    /// `{"latitude": float, "longitude": float, "address": string}`; both coordinates are
    /// required unless both are absent (empty value).
    fn from_hash(
        &self,
        input: &HashValue,
        _cx: &ValueContext<'_>,
    ) -> Result<HashValue, ValueError> {
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

    fn to_hash(&self, value: &HashValue, _cx: &ValueContext<'_>) -> HashValue {
        value.clone()
    }

    fn is_empty(&self, value: &HashValue) -> bool {
        field(value, "latitude").is_null() && field(value, "longitude").is_null()
    }

    /// Not in the reference: the coordinates must be on Earth.
    fn validate(
        &self,
        value: &HashValue,
        _def: &Definition<'_>,
        _cx: &ValueContext<'_>,
    ) -> Vec<ValueError> {
        let mut errors = Vec::new();
        if field(value, "latitude")
            .as_f64()
            .is_some_and(|l| !(-90.0..=90.0).contains(&l))
        {
            errors.push(ValueError::new(
                "latitude",
                "Latitude must be between -90 and 90.",
            ));
        }
        if field(value, "longitude")
            .as_f64()
            .is_some_and(|l| !(-180.0..=180.0).contains(&l))
        {
            errors.push(ValueError::new(
                "longitude",
                "Longitude must be between -180 and 180.",
            ));
        }
        errors
    }

    fn sort_key(&self, value: &HashValue) -> SortKey {
        sort_text(&address(value))
    }

    fn name_text(&self, value: &HashValue) -> String {
        address(value)
    }
}
