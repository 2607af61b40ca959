-- Row triggers do not fire on TRUNCATE: refuse it with a statement trigger.
CREATE TRIGGER audit_log_no_truncate BEFORE TRUNCATE ON audit_log FOR EACH STATEMENT EXECUTE FUNCTION audit_log_append_only();
