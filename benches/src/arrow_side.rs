//! arrow-rs's side of the benchmark: its two read paths and its Arrow writer.

use crate::config::{ColumnConfig, PageVersion, WriteConfig, ZSTD_LEVEL};
use arrow_array::{Array, RecordBatch};
use arrow_data::ArrayData;
use bytes::Bytes;
use parket::format::{CompressionCodec as PCodec, Encoding as PEncoding};
use parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;
use parquet::arrow::ArrowWriter;
use parquet::basic::{Compression, Encoding, PageType, ZstdLevel};
use parquet::column::reader::{ColumnReader, ColumnReaderImpl};
use parquet::data_type::DataType;
use parquet::errors::Result;
use parquet::file::properties::{EnabledStatistics, WriterProperties, WriterVersion};
use parquet::file::reader::FileReader;
use parquet::file::serialized_reader::SerializedFileReader;
use parquet::schema::types::ColumnPath;

/// Records per `read_records` call and rows per Arrow batch.
pub const BATCH_SIZE: usize = 8192;

/// Reused buffers of one column's low-level reads.
struct Buffers<T> {
    values: Vec<T>,
    def_levels: Vec<i16>,
    rep_levels: Vec<i16>,
}

impl<T> Buffers<T> {
    fn new() -> Self {
        Buffers {
            values: Vec::new(),
            def_levels: Vec::new(),
            rep_levels: Vec::new(),
        }
    }
}

/// Reads every value of one column chunk with `read_records`, `BATCH_SIZE` records at a time,
/// into buffers that are cleared (not freed) between calls. Returns the non-null values read.
fn drain<T: DataType>(
    mut reader: ColumnReaderImpl<T>,
    buffers: &mut Buffers<T::T>,
) -> Result<usize> {
    let mut total = 0;
    loop {
        buffers.values.clear();
        buffers.def_levels.clear();
        buffers.rep_levels.clear();
        let (records, values, levels) = reader.read_records(
            BATCH_SIZE,
            Some(&mut buffers.def_levels),
            Some(&mut buffers.rep_levels),
            &mut buffers.values,
        )?;
        // Keep the work observable so that the optimizer cannot drop it.
        std::hint::black_box((&buffers.values, &buffers.def_levels, &buffers.rep_levels));
        total += values;
        if records == 0 && levels == 0 {
            return Ok(total);
        }
    }
}

/// Low-level path: opens the file (footer parsed inside the timing), then for every row group
/// and every leaf column reads all values and levels through the typed `ColumnReader`.
/// Returns the number of non-null leaf values decoded.
pub fn decode_all_columns(bytes: &Bytes) -> Result<usize> {
    let file = SerializedFileReader::new(bytes.clone())?;
    let mut bools = Buffers::new();
    let mut i32s = Buffers::new();
    let mut i64s = Buffers::new();
    let mut i96s = Buffers::new();
    let mut f32s = Buffers::new();
    let mut f64s = Buffers::new();
    let mut byte_arrays = Buffers::new();
    let mut fixed = Buffers::new();
    let mut total = 0;
    for rg in 0..file.num_row_groups() {
        let row_group = file.get_row_group(rg)?;
        for column in 0..row_group.num_columns() {
            total += match row_group.get_column_reader(column)? {
                ColumnReader::BoolColumnReader(r) => drain(r, &mut bools)?,
                ColumnReader::Int32ColumnReader(r) => drain(r, &mut i32s)?,
                ColumnReader::Int64ColumnReader(r) => drain(r, &mut i64s)?,
                ColumnReader::Int96ColumnReader(r) => drain(r, &mut i96s)?,
                ColumnReader::FloatColumnReader(r) => drain(r, &mut f32s)?,
                ColumnReader::DoubleColumnReader(r) => drain(r, &mut f64s)?,
                ColumnReader::ByteArrayColumnReader(r) => drain(r, &mut byte_arrays)?,
                ColumnReader::FixedLenByteArrayColumnReader(r) => drain(r, &mut fixed)?,
            };
        }
    }
    Ok(total)
}

/// Arrow path: `ParquetRecordBatchReaderBuilder` over the in-memory bytes, all columns,
/// `BATCH_SIZE` rows per batch; each batch is dropped once read. `f` sees every batch.
pub fn read_arrow(bytes: &Bytes, mut f: impl FnMut(RecordBatch)) -> Result<usize> {
    let reader = ParquetRecordBatchReaderBuilder::try_new(bytes.clone())?
        .with_batch_size(BATCH_SIZE)
        .build()?;
    let mut rows = 0;
    for batch in reader {
        let batch = batch?;
        rows += batch.num_rows();
        f(batch);
    }
    Ok(rows)
}

/// Bytes of the Arrow buffers of `data`: values, offsets and validity bitmaps, children
/// included; lengths, not allocated capacities.
pub fn arrow_bytes(data: &ArrayData) -> usize {
    let own: usize = data.buffers().iter().map(|b| b.len()).sum();
    let nulls = data.nulls().map_or(0, |n| n.buffer().len());
    own + nulls + data.child_data().iter().map(arrow_bytes).sum::<usize>()
}

/// Bytes of the Arrow buffers of every column of `batch` (see [`arrow_bytes`]).
pub fn batch_bytes(batch: &RecordBatch) -> usize {
    batch
        .columns()
        .iter()
        .map(|c| arrow_bytes(&c.to_data()))
        .sum()
}

fn to_parket_encoding(e: Encoding) -> PEncoding {
    // Both enums spell the variants as the spec does.
    format!("{e:?}").parse().unwrap_or(PEncoding::Plain)
}

fn to_parket_codec(c: Compression) -> PCodec {
    match c {
        Compression::UNCOMPRESSED => PCodec::Uncompressed,
        Compression::SNAPPY => PCodec::Snappy,
        Compression::GZIP(_) => PCodec::Gzip,
        Compression::LZO => PCodec::Lzo,
        Compression::BROTLI(_) => PCodec::Brotli,
        Compression::LZ4 => PCodec::Lz4,
        Compression::ZSTD(_) => PCodec::Zstd,
        Compression::LZ4_RAW => PCodec::Lz4Raw,
    }
}

/// Reads how the file was written: codec and dictionary from the column chunk metadata, page
/// version and value encodings from the page headers (every page of every chunk is read once).
pub fn write_config(bytes: &Bytes) -> Result<WriteConfig> {
    let file = SerializedFileReader::new(bytes.clone())?;
    let schema = file.metadata().file_metadata().schema_descr_ptr();
    let mut columns: Vec<ColumnConfig> = (0..schema.num_columns())
        .map(|i| ColumnConfig {
            path: schema.column(i).path().parts().to_vec(),
            codec: PCodec::Uncompressed,
            dictionary: false,
            encoding: PEncoding::Plain,
        })
        .collect();
    let mut page_version = None;
    for rg in 0..file.num_row_groups() {
        let row_group = file.get_row_group(rg)?;
        for (i, column) in columns.iter_mut().enumerate() {
            let chunk = row_group.metadata().column(i);
            column.codec = to_parket_codec(chunk.compression());
            column.dictionary |= chunk.dictionary_page_offset().is_some();
            for page in row_group.get_column_page_reader(i)? {
                let page = page?;
                let version = match page.page_type() {
                    PageType::DATA_PAGE => PageVersion::V1,
                    PageType::DATA_PAGE_V2 => PageVersion::V2,
                    _ => continue,
                };
                page_version.get_or_insert(version);
                match page.encoding() {
                    Encoding::RLE_DICTIONARY | Encoding::PLAIN_DICTIONARY => {}
                    other => column.encoding = to_parket_encoding(other),
                }
            }
        }
    }
    Ok(WriteConfig {
        page_version: page_version.unwrap_or(PageVersion::V1),
        columns,
    })
}

/// arrow-rs writer properties reproducing `config`. Everything else is arrow-rs's default,
/// except statistics: chunk level and no offset index, as pyarrow writes by default.
pub fn writer_properties(config: &WriteConfig) -> Result<WriterProperties> {
    let mut builder = WriterProperties::builder()
        .set_writer_version(match config.page_version {
            PageVersion::V1 => WriterVersion::PARQUET_1_0,
            PageVersion::V2 => WriterVersion::PARQUET_2_0,
        })
        .set_statistics_enabled(EnabledStatistics::Chunk)
        .set_offset_index_disabled(true);
    for column in &config.columns {
        let path = ColumnPath::new(column.path.clone());
        let codec = match column.codec {
            PCodec::Uncompressed => Compression::UNCOMPRESSED,
            PCodec::Snappy => Compression::SNAPPY,
            PCodec::Zstd => Compression::ZSTD(ZstdLevel::try_new(ZSTD_LEVEL)?),
            other => {
                return Err(parquet::errors::ParquetError::General(format!(
                    "codec {other} is not used by the data sets"
                )))
            }
        };
        let encoding: Encoding = column.encoding.name().parse()?;
        builder = builder
            .set_column_compression(path.clone(), codec)
            .set_column_dictionary_enabled(path.clone(), column.dictionary)
            // With the dictionary on, this is the fallback encoding.
            .set_column_encoding(path, encoding);
    }
    Ok(builder.build())
}

/// Writes `batches` with `properties` into a new `Vec<u8>`.
pub fn write(batches: &[RecordBatch], properties: &WriterProperties) -> Result<Vec<u8>> {
    let schema = batches
        .first()
        .map(|b| b.schema())
        .ok_or_else(|| parquet::errors::ParquetError::General("no batches".into()))?;
    let mut writer = ArrowWriter::try_new(Vec::new(), schema, Some(properties.clone()))?;
    for batch in batches {
        writer.write(batch)?;
    }
    writer.into_inner()
}
