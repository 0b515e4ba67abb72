-- A company's webhooks and the outbox of their deliveries (app.WebhookTx),
-- each record's JSON in body, with the columns deliveries are claimed by.
-- A delivery is written in the transaction of the change it reports; a
-- server claims the oldest pending delivery of each webhook, due and not
-- leased, FOR UPDATE SKIP LOCKED, so that several servers deliver each
-- one once.
CREATE TABLE webhooks (
	id         text COLLATE "C" PRIMARY KEY,
	company_id text COLLATE "C" NOT NULL,
	body       jsonb NOT NULL
);
CREATE INDEX webhooks_company ON webhooks (company_id, id);

CREATE TABLE webhook_deliveries (
	id          text COLLATE "C" PRIMARY KEY,
	webhook_id  text COLLATE "C" NOT NULL REFERENCES webhooks (id) ON DELETE CASCADE,
	state       text NOT NULL,
	next_at     timestamptz,
	lease_until timestamptz,
	body        jsonb NOT NULL
);
CREATE INDEX webhook_deliveries_webhook ON webhook_deliveries (webhook_id, id);
CREATE INDEX webhook_deliveries_pending ON webhook_deliveries (webhook_id, id) WHERE state = 'pending';
