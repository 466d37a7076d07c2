package demo

// The data_platform_query schema follows seed 000's example: a list of
// sources that are a tagged union on "type" (sql | mongodb | api), joins with
// conditions, transformations (filter | agg) and an output block.
const queryInput = `{
  "type": "object",
  "properties": {
    "qid": {"type": "string", "minLength": 1, "maxLength": 100, "description": "Caller-chosen query id, echoed in the result"},
    "sources": {
      "type": "array",
      "items": {"$ref": "#/$defs/Source"},
      "minItems": 1,
      "maxItems": 10,
      "description": "Datasets to read. Each gets an alias (default: its table, collection or last URL segment) that joins and column names refer to"
    },
    "joins": {
      "type": "array",
      "items": {"$ref": "#/$defs/Join"},
      "maxItems": 9,
      "description": "How the sources combine; each join must add one source not yet joined"
    },
    "transformations": {
      "type": "array",
      "items": {"$ref": "#/$defs/Transformation"},
      "maxItems": 20,
      "description": "Applied in order after the joins"
    },
    "output": {"$ref": "#/$defs/Output"}
  },
  "required": ["qid", "sources", "output"],
  "additionalProperties": false,
  "$defs": {
    "Source": {
      "oneOf": [
        {"$ref": "#/$defs/SQLSource"},
        {"$ref": "#/$defs/MongoSource"},
        {"$ref": "#/$defs/APISource"}
      ]
    },
    "SQLSource": {
      "type": "object",
      "properties": {
        "type": {"const": "sql"},
        "alias": {"$ref": "#/$defs/Alias"},
        "driver": {"type": "string", "enum": ["pg", "mysql", "clickhouse"]},
        "host": {"type": "string"},
        "database": {"type": "string"},
        "query": {"type": "string", "maxLength": 4000, "description": "SELECT columns FROM table [WHERE cond] [ORDER BY col [ASC|DESC]] [LIMIT n]; aggregate with an agg transformation instead of SQL"}
      },
      "required": ["type", "driver", "host", "database", "query"],
      "additionalProperties": false
    },
    "MongoSource": {
      "type": "object",
      "properties": {
        "type": {"const": "mongodb"},
        "alias": {"$ref": "#/$defs/Alias"},
        "uri": {"type": "string", "pattern": "^mongodb(\\+srv)?://", "description": "Connection string, e.g. mongodb://mongo.demo.internal:27017"},
        "database": {"type": "string"},
        "collection": {"type": "string"},
        "filter": {"type": "object", "description": "MongoDB query document: field equality, $eq $ne $gt $gte $lt $lte $in $nin $exists, $and $or; dotted paths reach nested fields"},
        "projection": {
          "type": "object",
          "additionalProperties": {"type": "integer", "enum": [0, 1]},
          "description": "Fields to include (1) or exclude (0)"
        }
      },
      "required": ["type", "uri", "database", "collection"],
      "additionalProperties": false
    },
    "APISource": {
      "type": "object",
      "properties": {
        "type": {"const": "api"},
        "alias": {"$ref": "#/$defs/Alias"},
        "url": {"type": "string", "format": "uri"},
        "method": {"type": "string", "enum": ["GET", "POST"], "default": "GET"},
        "headers": {"type": "object", "additionalProperties": {"type": "string"}},
        "params": {
          "type": "object",
          "additionalProperties": {"type": ["string", "number", "boolean"]},
          "description": "Query parameters"
        }
      },
      "required": ["type", "url"],
      "additionalProperties": false
    },
    "Alias": {"type": "string", "pattern": "^[A-Za-z_][A-Za-z0-9_]*$"},
    "Join": {
      "type": "object",
      "properties": {
        "left": {"type": "string", "description": "Alias of one source"},
        "right": {"type": "string", "description": "Alias of the other source"},
        "type": {"type": "string", "enum": ["inner", "left", "right"], "default": "inner"},
        "on": {"type": "array", "items": {"$ref": "#/$defs/Cond"}, "minItems": 1}
      },
      "required": ["left", "right", "on"],
      "additionalProperties": false
    },
    "Cond": {
      "type": "object",
      "properties": {
        "left": {"type": "string", "description": "Column, e.g. o.customer_id"},
        "op": {"type": "string", "enum": ["=", "!=", "<", "<=", ">", ">="], "default": "="},
        "right": {"type": "string", "description": "Column, e.g. c.id"}
      },
      "required": ["left", "right"],
      "additionalProperties": false
    },
    "Transformation": {
      "oneOf": [
        {
          "type": "object",
          "properties": {
            "type": {"const": "filter"},
            "cond": {"type": "string", "maxLength": 1000, "description": "e.g. amount > 100 AND status IN ('paid', 'pending')"}
          },
          "required": ["type", "cond"],
          "additionalProperties": false
        },
        {
          "type": "object",
          "properties": {
            "type": {"const": "agg"},
            "group": {"type": "array", "items": {"type": "string"}, "description": "Columns to group by; none for one total row"},
            "aggs": {
              "type": "object",
              "additionalProperties": {"$ref": "#/$defs/Aggregate"},
              "minProperties": 1,
              "description": "Output column name to aggregate"
            }
          },
          "required": ["type", "aggs"],
          "additionalProperties": false
        }
      ]
    },
    "Aggregate": {
      "type": "object",
      "properties": {
        "fn": {"type": "string", "enum": ["count", "count_distinct", "sum", "avg", "min", "max"]},
        "field": {"type": "string", "description": "Column to aggregate; count without a field counts rows"}
      },
      "required": ["fn"],
      "additionalProperties": false
    },
    "Output": {
      "type": "object",
      "properties": {
        "format": {"type": "string", "enum": ["json", "csv", "markdown"], "default": "json"},
        "limit": {"type": "integer", "minimum": 1, "maximum": 1000, "default": 100},
        "sort": {
          "type": "array",
          "items": {
            "type": "object",
            "properties": {
              "field": {"type": "string"},
              "order": {"type": "string", "enum": ["asc", "desc"], "default": "asc"}
            },
            "required": ["field"],
            "additionalProperties": false
          }
        }
      },
      "additionalProperties": false
    }
  }
}`

const queryOutput = `{
  "type": "object",
  "properties": {
    "qid": {"type": "string"},
    "columns": {"type": "array", "items": {"type": "string"}},
    "rows": {
      "type": "array",
      "items": {"type": "array", "items": {"type": ["string", "number", "boolean", "null"]}}
    },
    "rowCount": {"type": "integer", "description": "Rows returned"},
    "totalRows": {"type": "integer", "description": "Rows before the output limit"},
    "truncated": {"type": "boolean"},
    "sources": {
      "type": "array",
      "items": {
        "type": "object",
        "properties": {
          "alias": {"type": "string"},
          "type": {"type": "string", "enum": ["sql", "mongodb", "api"]},
          "rowsRead": {"type": "integer"}
        },
        "required": ["alias", "type", "rowsRead"],
        "additionalProperties": false
      }
    }
  },
  "required": ["qid", "columns", "rows", "rowCount", "totalRows", "truncated", "sources"],
  "additionalProperties": false
}`
