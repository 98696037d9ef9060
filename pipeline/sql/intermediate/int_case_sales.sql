-- int_case_sales: the auction attempts of a case summed up (s.15(3), s.17).
-- Proceeds P = bids of accepted attempts; expenses E = expenses of every
-- attempt, accepted or not; S = the day of the last accepted attempt. A disposal after a
-- rejected bid (s15_disposal) counts as an accepted attempt; its heads are not among the heads
-- sold (R5: case_accounts counts them apart, from int_leaves). An s.17 attempt of a case read as
-- unclaimed (S17-PATH-UNFOUNDED, R18) is an s.15 attempt here (int_sales.path).
SELECT
    case_id,
    sum(proceeds) AS sale_proceeds,
    sum(sale_expenses) AS sale_expenses,
    coalesce(sum(head_sold) FILTER (WHERE path <> 's15_disposal'), 0) AS head_sold,
    count(*) AS attempts,
    bool_or(accepted) AS any_accepted,
    max(sale_on) FILTER (WHERE accepted) AS sold_on,
    bool_or(accepted AND path = 's17_refusal') AS s17_sale,
    bool_or(path = 's17_refusal') AS s17_attempt,
    sum(head_sold) FILTER (WHERE path = 's15_unclaimed') AS head_sold_s15,
    sum(head_sold) FILTER (WHERE path = 's17_refusal') AS head_sold_s17,
    min(sale_on) FILTER (WHERE path = 's15_unclaimed') AS first_s15_attempt_on,
    arg_max(sale_id, {'on': sale_on, 'id': sale_id}) FILTER (WHERE accepted) AS last_sale_id,
    arg_max(conducted_by, {'on': sale_on, 'id': sale_id}) FILTER (WHERE accepted) AS sale_officer,
    arg_max(balance_paid, {'on': sale_on, 'id': sale_id}) FILTER (WHERE accepted AND path = 's17_refusal') AS balance_paid,
    arg_max(balance_paid_on, {'on': sale_on, 'id': sale_id}) FILTER (WHERE accepted AND path = 's17_refusal') AS balance_paid_on,
    arg_max(balance_receipt_signed, {'on': sale_on, 'id': sale_id}) FILTER (WHERE accepted AND path = 's17_refusal')
        AS balance_receipt_signed,
    string_agg(source, '; ' ORDER BY sale_on, sale_id) AS source
FROM int_sales
GROUP BY case_id
