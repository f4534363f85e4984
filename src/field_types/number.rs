//! `ezinteger` and `ezfloat`: a number (`null` when empty), one type generic over the `i64`
//! or `f64` it holds, validated by its range validator (`IntegerValueValidator`,
//! `FloatValueValidator`). An integer sorts by its value; a float has no sort key and its
//! name text is the number as PHP prints it.

use super::*;
use std::marker::PhantomData;

/// `ezinteger` or `ezfloat`, by the number `N` it holds.
pub(crate) struct NumberType<N>(PhantomData<N>);

pub(crate) type IntegerType = NumberType<i64>;
pub(crate) type FloatType = NumberType<f64>;

impl<N> NumberType<N> {
    pub(crate) const fn new() -> Self {
        NumberType(PhantomData)
    }
}

/// What the integer and the float type do differently.
pub(crate) trait Number: Copy + PartialOrd + Send + Sync + 'static {
    const NAME: &'static str;
    /// The message of an input that is not such a number.
    const NOT_A_NUMBER: &'static str;
    /// The range validator; its parameters are the minimum, then the maximum.
    const RANGE: &'static [ValidatorSchema];
    /// The number of a stored value or of a validator's bound.
    fn of(value: &HashValue) -> Option<Self>;
    /// The stored form of an input number, `None` when it cannot be stored.
    fn stored(self) -> Option<HashValue>;
    /// Whether this maximum is no limit.
    fn unbounded(self) -> bool;
    /// A bound as a validation message shows it (`given` is the validator's parameter).
    fn shown(self, given: &HashValue) -> String;
    fn sort_key(self) -> SortKey;
    fn name_text(self) -> String;
}

impl Number for i64 {
    const NAME: &'static str = "integer";
    const NOT_A_NUMBER: &'static str = "Value must be an integer";
    const RANGE: &'static [ValidatorSchema] = &[(
        "IntegerValueValidator",
        &[
            param("minIntegerValue", Kind::OptInt, Dflt::Null),
            param("maxIntegerValue", Kind::OptInt, Dflt::Null),
        ],
    )];

    /// An integer, also a numeric string or an integral float.
    fn of(value: &HashValue) -> Option<i64> {
        value.as_i64()
    }

    fn stored(self) -> Option<HashValue> {
        Some(HashValue::Int(self))
    }

    /// 0 is no maximum in the reference.
    fn unbounded(self) -> bool {
        self == 0
    }

    fn shown(self, _given: &HashValue) -> String {
        self.to_string()
    }

    fn sort_key(self) -> SortKey {
        SortKey::Int(self)
    }

    fn name_text(self) -> String {
        self.to_string()
    }
}

impl Number for f64 {
    const NAME: &'static str = "float";
    const NOT_A_NUMBER: &'static str = "Value must be a float";
    const RANGE: &'static [ValidatorSchema] = &[(
        "FloatValueValidator",
        &[
            param("minFloatValue", Kind::Number, Dflt::Null),
            param("maxFloatValue", Kind::Number, Dflt::Null),
        ],
    )];

    /// A number or a numeric string.
    fn of(value: &HashValue) -> Option<f64> {
        value.as_f64()
    }

    fn stored(self) -> Option<HashValue> {
        self.is_finite().then_some(HashValue::Float(Float(self)))
    }

    fn unbounded(self) -> bool {
        false
    }

    /// As given (the reference prints the parameter).
    fn shown(self, given: &HashValue) -> String {
        text_of(given)
    }

    fn sort_key(self) -> SortKey {
        SortKey::None
    }

    fn name_text(self) -> String {
        php_float(self)
    }
}

impl<N: Number> FieldType for NumberType<N> {
    fn schema(&self) -> Schema {
        Schema::named(N::NAME).validators(N::RANGE)
    }

    /// A number (see [`Number::of`]); `null` and blank text are empty, a boolean is refused.
    fn from_hash(&self, input: &HashValue, _: &ValueContext<'_>) -> Result<HashValue, ValueError> {
        match input {
            HashValue::Null => Ok(HashValue::Null),
            HashValue::String(s) if s.trim().is_empty() => Ok(HashValue::Null),
            HashValue::Bool(_) => Err(ValueError::new("value", N::NOT_A_NUMBER)),
            v => N::of(v)
                .and_then(N::stored)
                .ok_or_else(|| ValueError::new("value", N::NOT_A_NUMBER)),
        }
    }

    fn validate(&self, value: &HashValue, def: &Definition<'_>) -> Vec<ValueError> {
        let Some(n) = N::of(value) else {
            return Vec::new();
        };
        let [(validator, [min_key, max_key])] = N::RANGE else {
            return Vec::new();
        };
        let c = field(def.validators, validator);
        let mut errors = Vec::new();
        let max = field(c, max_key.key);
        if let Some(m) = N::of(max)
            && !m.unbounded()
            && n > m
        {
            errors.push(ValueError::new(
                "value",
                format!("The value can not be higher than {}.", m.shown(max)),
            ));
        }
        let min = field(c, min_key.key);
        if let Some(m) = N::of(min)
            && n < m
        {
            errors.push(ValueError::new(
                "value",
                format!("The value can not be lower than {}.", m.shown(min)),
            ));
        }
        errors
    }

    fn sort_key(&self, value: &HashValue) -> SortKey {
        N::of(value).map_or(SortKey::None, N::sort_key)
    }

    fn name_text(&self, value: &HashValue) -> String {
        N::of(value).map(N::name_text).unwrap_or_default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::field_types::tests::{cx, def};

    #[test]
    fn accepts_numeric_strings_and_checks_ranges() {
        let t = IntegerType::new();
        assert_eq!(t.from_hash(&"12".into(), &cx()), Ok(HashValue::Int(12)));
        assert!(t.from_hash(&"1.5".into(), &cx()).is_err());
        let validators = t
            .validators(&map([(
                "IntegerValueValidator",
                map([
                    ("minIntegerValue", 1.into()),
                    ("maxIntegerValue", 10.into()),
                ]),
            )]))
            .unwrap();
        let settings = t.settings(&HashValue::Null).unwrap();
        let d = def(&settings, &validators);
        let msgs = |n: i64| -> Vec<String> {
            t.validate(&n.into(), &d)
                .into_iter()
                .map(|e| e.message)
                .collect()
        };
        assert_eq!(msgs(11), ["The value can not be higher than 10."]);
        assert_eq!(msgs(0), ["The value can not be lower than 1."]);
        assert!(msgs(5).is_empty());
    }

    #[test]
    fn floats() {
        let t = FloatType::new();
        assert_eq!(
            t.from_hash(&"1.5".into(), &cx()),
            Ok(HashValue::Float(Float(1.5)))
        );
        assert_eq!(
            t.from_hash(&2.into(), &cx()),
            Ok(HashValue::Float(Float(2.0)))
        );
        assert!(t.from_hash(&"abc".into(), &cx()).is_err());
        assert_eq!(t.name_text(&HashValue::Float(Float(2.0))), "2");
        assert_eq!(t.name_text(&HashValue::Float(Float(0.1 + 0.2))), "0.3");
        let validators = t
            .validators(&map([(
                "FloatValueValidator",
                map([("maxFloatValue", "2.5".into())]),
            )]))
            .unwrap();
        let settings = HashValue::Map(vec![]);
        let d = def(&settings, &validators);
        let errs = t.validate(&HashValue::Float(Float(3.0)), &d);
        assert_eq!(errs[0].message, "The value can not be higher than 2.5.");
        assert!(
            t.validators(&map([(
                "FloatValueValidator",
                map([("minFloatValue", "x".into())])
            )]))
            .unwrap_err()
            .contains("must be of numeric type")
        );
    }

    #[test]
    fn integers_and_floats_differ_only_where_the_reference_does() {
        let (i, f) = (IntegerType::new(), FloatType::new());
        // A boolean is neither; blank text is empty; a float that is not finite is refused.
        for t in [&i as &dyn FieldType, &f] {
            assert!(t.from_hash(&true.into(), &cx()).is_err());
            assert_eq!(t.from_hash(&" ".into(), &cx()), Ok(HashValue::Null));
        }
        assert!(
            f.from_hash(&HashValue::Float(Float(f64::INFINITY)), &cx())
                .is_err()
        );
        assert_eq!(
            i.from_hash(&HashValue::Float(Float(3.0)), &cx()),
            Ok(HashValue::Int(3))
        );
        // Integers sort; floats do not.
        assert_eq!(i.sort_key(&HashValue::Int(-2)), SortKey::Int(-2));
        assert_eq!(f.sort_key(&HashValue::Float(Float(2.5))), SortKey::None);
        // A maximum of 0 is no limit for integers only.
        let zero = |t: &dyn FieldType, name: &str, key: &str| {
            let validators = t
                .validators(&map([(name, map([(key, 0.into())]))]))
                .unwrap();
            let settings = HashValue::Map(vec![]);
            let messages: Vec<String> = t
                .validate(&5.into(), &def(&settings, &validators))
                .into_iter()
                .map(|e| e.message)
                .collect();
            messages
        };
        assert!(zero(&i, "IntegerValueValidator", "maxIntegerValue").is_empty());
        assert_eq!(
            zero(&f, "FloatValueValidator", "maxFloatValue"),
            ["The value can not be higher than 0."]
        );
    }
}
