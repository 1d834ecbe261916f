//! Every schema of the parquet-testing corpus prints as message text that parses back to the
//! same schema, and survives the trip through SchemaElements.

use parket::read::footer::metadata_from_bytes;
use parket::schema::Schema;
use parket::{ErrorKind, Limits};

#[test]
fn every_corpus_schema_round_trips_through_message_text() {
    let mut checked = 0;
    for sub in ["data", "data/aes256", "data/geospatial", "bad_data"] {
        for path in parket::testing::corpus_files(sub) {
            let name = path.display().to_string();
            let bytes = std::fs::read(&path).unwrap();
            let md = match metadata_from_bytes(&bytes, &Limits::default()) {
                Ok(md) => md,
                Err(e) if matches!(e.kind(), ErrorKind::Encrypted) => continue,
                Err(_) if sub == "bad_data" => continue,
                Err(e) => panic!("{name}: {e}"),
            };
            let schema = match Schema::from_elements(&md.schema) {
                Ok(s) => s,
                Err(_) if sub == "bad_data" => continue,
                Err(e) => panic!("{name}: {e}"),
            };
            let text = schema.to_string();
            let parsed = Schema::parse(&text).unwrap_or_else(|e| panic!("{name}: {e}\n{text}"));
            assert_eq!(parsed, schema, "{name}: parse(print(s)) != s\n{text}");
            let again = Schema::from_elements(&schema.to_elements()).unwrap();
            assert_eq!(again, schema, "{name}: elements round trip");
            checked += 1;
        }
    }
    assert!(checked >= 70, "only {checked} schemas checked");
}
