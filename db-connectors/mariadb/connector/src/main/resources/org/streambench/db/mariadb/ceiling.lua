-- streambench ceiling: the processing operator's statements on the suite's table, one synchronous
-- call after another per thread, as prepared statements. Settings come from the environment:
-- CEILING_TABLE, CEILING_PATTERN (read, insert, update, mixed), CEILING_KEYS, CEILING_BLOB (bytes),
-- CEILING_BATCH (records per event: 1, or batch:N's N), CEILING_COUNTS (each thread writes
-- "<inserts> <updates>" to CEILING_COUNTS.<thread> when done).
--
-- Each thread reads and updates prefilled keys of its own (key index = thread modulo threads), as
-- each processing instance has its own keys: threads never wait for each other's row locks.
-- A batch of N, as the connector's (one SELECT ... IN for the reads, the writes in one round trip):
-- one SELECT ... WHERE id IN of N keys, then one multi-row INSERT, or one UPDATE ... WHERE id IN of N
-- distinct keys of the thread's (k, k + own/N, ...: an UPDATE ... IN updates a repeated key once).

local columns = "int_1, int_2, int_3, double_1, double_2, double_3, payload"

function thread_init()
  table_name = os.getenv("CEILING_TABLE")
  pattern = os.getenv("CEILING_PATTERN")
  keys = tonumber(os.getenv("CEILING_KEYS"))
  local size = tonumber(os.getenv("CEILING_BLOB"))
  -- random bytes, which InnoDB cannot compress; one BLOB per thread, made once
  local parts = {}
  for i = 1, size do
    parts[i] = string.char(math.random(0, 255))
  end
  blob = table.concat(parts)
  inserts, updates, counter = 0, 0, 0
  batch = tonumber(os.getenv("CEILING_BATCH"))
  threads = sysbench.opt.threads
  own = math.floor(keys / threads)
  stride = math.max(1, math.floor(own / batch))

  con = sysbench.sql.driver():connect()
  read = con:prepare("SELECT " .. columns .. " FROM " .. table_name .. " WHERE id = ?")
  read_id = read:bind_create(sysbench.sql.type.CHAR, 12)
  read:bind_param(read_id)
  insert = con:prepare("INSERT INTO " .. table_name .. " (id, " .. columns .. ") VALUES (?, 1, 2, 3, 1.5, 2.5, 3.5, ?)")
  insert_id = insert:bind_create(sysbench.sql.type.CHAR, 12)
  insert_blob = insert:bind_create(sysbench.sql.type.VARCHAR, size)
  insert:bind_param(insert_id, insert_blob)
  update = con:prepare("UPDATE " .. table_name .. " SET int_1 = int_1 + 1, int_2 = int_2 + 1, int_3 = int_3 + 1,"
    .. " double_1 = double_1 + 1, double_2 = double_2 + 1, double_3 = double_3 + 1, payload = ? WHERE id = ?")
  update_blob = update:bind_create(sysbench.sql.type.VARCHAR, size)
  update_id = update:bind_create(sysbench.sql.type.CHAR, 12)
  update:bind_param(update_blob, update_id)
  if batch > 1 then
    prepare_batches(size)
  end
end

local function placeholders(count, each)
  local parts = {}
  for i = 1, count do
    parts[i] = each
  end
  return table.concat(parts, ", ")
end

function prepare_batches(size)
  read_many = con:prepare("SELECT " .. columns .. " FROM " .. table_name .. " WHERE id IN ("
    .. placeholders(batch, "?") .. ")")
  read_many_ids = {}
  for i = 1, batch do
    read_many_ids[i] = read_many:bind_create(sysbench.sql.type.CHAR, 12)
  end
  read_many:bind_param(unpack(read_many_ids))
  insert_many = con:prepare("INSERT INTO " .. table_name .. " (id, " .. columns .. ") VALUES "
    .. placeholders(batch, "(?, 1, 2, 3, 1.5, 2.5, 3.5, ?)"))
  insert_many_params = {}
  for i = 1, batch do
    insert_many_params[2 * i - 1] = insert_many:bind_create(sysbench.sql.type.CHAR, 12)
    insert_many_params[2 * i] = insert_many:bind_create(sysbench.sql.type.VARCHAR, size)
  end
  insert_many:bind_param(unpack(insert_many_params))
  update_many = con:prepare("UPDATE " .. table_name .. " SET int_1 = int_1 + 1, int_2 = int_2 + 1,"
    .. " int_3 = int_3 + 1, double_1 = double_1 + 1, double_2 = double_2 + 1, double_3 = double_3 + 1,"
    .. " payload = ? WHERE id IN (" .. placeholders(batch, "?") .. ")")
  update_many_params = {update_many:bind_create(sysbench.sql.type.VARCHAR, size)}
  for i = 1, batch do
    update_many_params[i + 1] = update_many:bind_create(sysbench.sql.type.CHAR, 12)
  end
  update_many:bind_param(unpack(update_many_params))
end

-- the o-th prefilled key of this thread's own
local function own_key(o)
  return string.format("e%011d", o * threads + sysbench.tid)
end

local function existing_key()
  return own_key(sysbench.rand.uniform(0, own - 1))
end

-- n + the thread's number (2 digits) + its own counter (9 digits): never a prefilled e... key
local function new_key()
  counter = counter + 1
  return string.format("n%02d%09d", sysbench.tid, counter)
end

local function do_read(id)
  read_id:set(id)
  read:execute()
end

local function do_insert(id)
  insert_id:set(id)
  insert_blob:set(blob)
  insert:execute()
  inserts = inserts + 1
end

local function do_update(id)
  update_blob:set(blob)
  update_id:set(id)
  update:execute()
  updates = updates + 1
end

-- batch:N: N distinct prefilled keys, or the thread's next N new keys
local function existing_keys()
  local first = sysbench.rand.uniform(0, own - 1)
  local ids = {}
  for i = 1, batch do
    ids[i] = own_key((first + (i - 1) * stride) % own)
  end
  return ids
end

local function new_keys()
  local ids = {}
  for i = 1, batch do
    ids[i] = new_key()
  end
  return ids
end

local function read_batch(ids)
  for i = 1, batch do
    read_many_ids[i]:set(ids[i])
  end
  read_many:execute()
end

local function insert_batch(ids)
  for i = 1, batch do
    insert_many_params[2 * i - 1]:set(ids[i])
    insert_many_params[2 * i]:set(blob)
  end
  insert_many:execute()
  inserts = inserts + batch
end

local function update_batch(ids)
  update_many_params[1]:set(blob)
  for i = 1, batch do
    update_many_params[i + 1]:set(ids[i])
  end
  update_many:execute()
  updates = updates + batch
end

local flip = false

local function batch_event()
  if pattern == "read" then
    read_batch(existing_keys())
  elseif pattern == "insert" then
    insert_batch(new_keys())
  else
    flip = not flip
    if pattern == "mixed" and flip then
      local ids = new_keys()
      read_batch(ids)
      insert_batch(ids)
    else
      local ids = existing_keys()
      read_batch(ids)
      update_batch(ids)
    end
  end
end

function event()
  if batch > 1 then
    return batch_event()
  end
  if pattern == "read" then
    do_read(existing_key())
  elseif pattern == "insert" then
    do_insert(new_key())
  elseif pattern == "update" then
    local id = existing_key()
    do_read(id)
    do_update(id)
  else
    -- mixed: half new keys (a read that misses, then an insert), half existing keys (read, update)
    flip = not flip
    if flip then
      local id = new_key()
      do_read(id)
      do_insert(id)
    else
      local id = existing_key()
      do_read(id)
      do_update(id)
    end
  end
end

function thread_done()
  local f = assert(io.open(os.getenv("CEILING_COUNTS") .. "." .. sysbench.tid, "w"))
  f:write(inserts, " ", updates, "\n")
  f:close()
  con:disconnect()
end
