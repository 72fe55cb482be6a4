-- Lets the suite's user settle the database after a prefill (FLUSH TABLES ... FOR EXPORT needs RELOAD);
-- the official image runs it once, on the bootstrapping node's first start, after creating the user.
GRANT RELOAD ON *.* TO 'streambench'@'%';
