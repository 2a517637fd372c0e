// `POST /check_sqs` and `POST /check_sns` (testSQSSettings, testSNSSettings): the provider can
// deliver events to an AWS SQS queue or SNS topic instead of a webhook; these calls check the
// configuration (the request's fields, else the app's from `PATCH /app`) by sending a test
// message, and answer `{status: "ok"}` or `{status: "error", error}` as the provider does.
// This backend contacts loopback addresses only (ElasticMQ, LocalStack): a queue or topic
// elsewhere is reported unreachable without a connection being made. SNS goes to the region's
// endpoint unless `sns_endpoint` (this backend's own field) names a local one.
import { createHash, createHmac } from 'node:crypto';
import type { CheckSNSResponse, CheckSQSResponse } from 'stream-chat';
import type { ServerContext } from '../../http/context';
import { optionalString, type JsonObject } from '../../http/input';

type QueueCheck = Omit<CheckSQSResponse & CheckSNSResponse, 'duration'>;

const TIMEOUT_MS = 2500;
const TEST_MESSAGE = JSON.stringify({ type: 'check', text: 'A test message from the chat backend' });

/** The request's value for `key`, else the app's stored setting. */
function setting(ctx: ServerContext, body: JsonObject, key: string): string | undefined {
  const given = optionalString(body[key], key);
  if (given) return given;
  const stored = ctx.store.appSettings.all()[key];
  return typeof stored === 'string' && stored ? stored : undefined;
}

/** Only names that cannot resolve anywhere else (not `*.localhost`, which a resolver may send out). */
export function isLoopback(url: URL): boolean {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  return host === 'localhost' || /^127\.\d+\.\d+\.\d+$/.test(host) || host === '::1';
}

const hex = (data: string) => createHash('sha256').update(data).digest('hex');
const hmac = (key: Buffer | string, data: string) => createHmac('sha256', key).update(data).digest();

/** AWS Signature Version 4 headers for a form POST. */
function signV4(url: URL, body: string, service: string, region: string, key: string, secret: string): Record<string, string> {
  const amzDate = new Date().toISOString().replace(/[-:]/g, '').replace(/\.\d{3}/, '');
  const day = amzDate.slice(0, 8);
  const contentType = 'application/x-www-form-urlencoded; charset=utf-8';
  const query = [...url.searchParams].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join('&');
  const headers = `content-type:${contentType}\nhost:${url.host}\nx-amz-date:${amzDate}\n`;
  const signed = 'content-type;host;x-amz-date';
  const request = ['POST', url.pathname || '/', query, headers, signed, hex(body)].join('\n');
  const scope = `${day}/${region}/${service}/aws4_request`;
  const toSign = ['AWS4-HMAC-SHA256', amzDate, scope, hex(request)].join('\n');
  const signingKey = hmac(hmac(hmac(hmac(`AWS4${secret}`, day), region), service), 'aws4_request');
  const signature = createHmac('sha256', signingKey).update(toSign).digest('hex');
  return {
    'content-type': contentType,
    'x-amz-date': amzDate,
    authorization: `AWS4-HMAC-SHA256 Credential=${key}/${scope}, SignedHeaders=${signed}, Signature=${signature}`,
  };
}

/** Sends the signed action to a loopback endpoint; the AWS error message when refused. */
async function callAws(url: URL, form: Record<string, string>, service: string, region: string, key: string, secret: string): Promise<QueueCheck> {
  if (!isLoopback(url)) {
    return { status: 'error', error: `${url.host} cannot be reached: this backend contacts nothing beyond localhost` };
  }
  const body = new URLSearchParams(form).toString();
  try {
    const response = await fetch(url, {
      method: 'POST',
      headers: signV4(url, body, service, region, key, secret),
      body,
      // A redirect could lead beyond localhost: it counts as the answer.
      redirect: 'manual',
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
    const text = (await response.text()).slice(0, 4096);
    if (response.ok) return { status: 'ok', data: { http_status: response.status } };
    const message = /<Message>([^<]*)<\/Message>/.exec(text)?.[1] ?? /"message"\s*:\s*"([^"]*)"/i.exec(text)?.[1] ?? '';
    return { status: 'error', error: `${service.toUpperCase()} answered HTTP ${response.status}${message ? `: ${message}` : ''}` };
  } catch (error) {
    return { status: 'error', error: `${url.host} is unreachable: ${error instanceof Error ? error.message : String(error)}` };
  }
}

function parsedUrl(value: string): URL | undefined {
  try {
    const url = new URL(value);
    return /^https?:$/.test(url.protocol) ? url : undefined;
  } catch {
    return undefined;
  }
}

export async function checkSqs(ctx: ServerContext, body: JsonObject): Promise<QueueCheck> {
  const queue = setting(ctx, body, 'sqs_url');
  const key = setting(ctx, body, 'sqs_key');
  const secret = setting(ctx, body, 'sqs_secret');
  if (!queue) return { status: 'error', error: 'no SQS queue is configured: set sqs_url' };
  if (!key || !secret) return { status: 'error', error: 'the SQS credentials are missing: set sqs_key and sqs_secret' };
  const url = parsedUrl(queue);
  if (!url) return { status: 'error', error: `sqs_url "${queue}" is not a queue URL` };
  const region = /sqs\.([a-z0-9-]+)\./.exec(url.hostname)?.[1] ?? 'us-east-1';
  return callAws(url, { Action: 'SendMessage', MessageBody: TEST_MESSAGE, Version: '2012-11-05' }, 'sqs', region, key, secret);
}

export async function checkSns(ctx: ServerContext, body: JsonObject): Promise<QueueCheck> {
  const topic = setting(ctx, body, 'sns_topic_arn');
  const key = setting(ctx, body, 'sns_key');
  const secret = setting(ctx, body, 'sns_secret');
  const endpoint = setting(ctx, body, 'sns_endpoint');
  if (!topic) return { status: 'error', error: 'no SNS topic is configured: set sns_topic_arn' };
  if (!key || !secret) return { status: 'error', error: 'the SNS credentials are missing: set sns_key and sns_secret' };
  const region = /^arn:aws[a-z-]*:sns:([a-z0-9-]+):\d{12}:[A-Za-z0-9_.-]+$/.exec(topic)?.[1];
  if (!region) return { status: 'error', error: `sns_topic_arn "${topic}" is not an SNS topic ARN` };
  const url = parsedUrl(endpoint ?? `https://sns.${region}.amazonaws.com/`);
  if (!url) return { status: 'error', error: `sns_endpoint "${endpoint}" is not a URL` };
  return callAws(url, { Action: 'Publish', TopicArn: topic, Message: TEST_MESSAGE, Version: '2010-03-31' }, 'sns', region, key, secret);
}
