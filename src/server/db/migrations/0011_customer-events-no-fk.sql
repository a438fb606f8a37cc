ALTER TABLE "customer_events" DROP CONSTRAINT "customer_events_workspace_id_workspaces_id_fk";
